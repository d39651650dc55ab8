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

/** Whether every string and key in `data` is whole characters: a walk with a list, no paths. */
function wellFormed(data: unknown): boolean {
  const pending: unknown[] = [data];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return false;
    } else if (Array.isArray(value)) {
      for (const v of value) pending.push(v);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) {
        if (LONE_SURROGATE.test(key)) return false;
        pending.push(v);
      }
    }
  }
  return true;
}

/** The path of the first string (or key) in `data` that is not whole characters. */
function illFormedPath(data: unknown, path: string[] = []): string[] | null {
  if (typeof data === 'string') return LONE_SURROGATE.test(data) ? path : null;
  if (data === null || typeof data !== 'object') return null;
  for (const [key, v] of Array.isArray(data) ? data.entries() : Object.entries(data)) {
    if (LONE_SURROGATE.test(String(key))) return path;
    const found = wellFormed(v) ? null : illFormedPath(v, [...path, String(key)]);
    if (found) return found;
  }
  return null;
}

/**
 * A lone surrogate in validated input (zod's output: only the fields a schema takes, within its
 * limits, so the walk is short): a JSON `\ud800` escape, or a multipart header in UTF-16, makes
 * half a character, which SQLite and PostgreSQL would each store as a different replacement (two
 * such names equal on one engine and not on the other). The field named, as a refusal.
 */
export function illFormedText(data: unknown): ValidationError | null {
  if (wellFormed(data)) return null;
  const path = (illFormedPath(data) ?? []).join('.');
  return new ValidationError(`${path ? `${path}: ` : ''}must be valid Unicode text`);
}

/** Parses what a route reads itself (multipart fields) with a contract schema. */
export function parse<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data, { reportInput: true });
  if (!result.success) throw toValidationError(result.error);
  const illFormed = illFormedText(result.data);
  if (illFormed) throw illFormed;
  return result.data;
}
