import type { z } from 'zod';
import { ValidationError } from '../errors.ts';

/** Parses a request part with a contract schema; the error names the first field that is wrong. */
export function parse<S extends z.ZodType>(schema: S, data: unknown): z.infer<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join('.') : undefined;
  if (!issue) throw new ValidationError('Invalid request');
  if (issue.code === 'invalid_type' && field && issue.input === undefined) {
    throw new ValidationError(`${field} is required`);
  }
  throw new ValidationError(field ? `${field}: ${issue.message}` : issue.message);
}
