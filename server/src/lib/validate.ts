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

/** A lone UTF-16 surrogate: half a character, which each engine would store differently. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Input whose strings (or keys) are not all well-formed Unicode: a JSON `\ud800` escape makes
 * half a character, which SQLite and PostgreSQL would each store as a different replacement (two
 * such names equal on one engine and not on the other). The first such field, as a refusal.
 * Walked with a list, not recursion: a body nested thousands deep must not overflow the stack.
 */
export function illFormedText(data: unknown): ValidationError | null {
  const pending: { value: unknown; path: string }[] = [{ value: data, path: '' }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const { value, path } = item;
    const at = (key: string | number) => (path ? `${path}.${key}` : String(key));
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) {
        return new ValidationError(`${path ? `${path}: ` : ''}must be valid Unicode text`);
      }
    } else if (value !== null && typeof value === 'object') {
      const entries = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
      // Pushed last to first, so the fields are looked at (and the first bad one named) in order.
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, v] = entries[i]!;
        if (typeof key === 'string' && LONE_SURROGATE.test(key)) {
          return new ValidationError('must be valid Unicode text');
        }
        pending.push({ value: v, path: at(key) });
      }
    }
  }
  return null;
}

/** Parses what a route reads itself (multipart fields) with a contract schema. */
export function parse<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const illFormed = illFormedText(data);
  if (illFormed) throw illFormed;
  const result = schema.safeParse(data, { reportInput: true });
  if (result.success) return result.data;
  throw toValidationError(result.error);
}
