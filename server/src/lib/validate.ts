import type { z } from 'zod';
import { ValidationError } from '../errors.ts';

/** A zod failure as the API reports it: the first wrong field named, in one sentence. */
export function toValidationError(error: z.ZodError): ValidationError {
  const issue = error.issues[0];
  if (!issue) return new ValidationError('Invalid request');
  const field = issue.path.length > 0 ? issue.path.join('.') : undefined;
  if (issue.code === 'invalid_type' && field && issue.input === undefined) {
    return new ValidationError(`${field} is required`);
  }
  return new ValidationError(field ? `${field}: ${issue.message}` : issue.message);
}

/** Parses what a route reads itself (multipart fields) with a contract schema. */
export function parse<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data, { reportInput: true });
  if (result.success) return result.data;
  throw toValidationError(result.error);
}
