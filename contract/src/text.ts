/** String schemas every endpoint builds on: nothing that reaches the database carries a control character. */
import { z } from 'zod';
import { CONTROL_CHARACTERS } from './constants.ts';

const NO_CONTROL = 'must not contain control characters';

/** Free text that is stored or searched: at most `max` characters, no control characters. */
export function text(max: number) {
  return z
    .string()
    .max(max)
    .refine((s) => !CONTROL_CHARACTERS.test(s), NO_CONTROL);
}

/** A record id in a path, a query or a body (uuids, and the ids tests and older rows use). */
export const Id = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be an id');

/** A boolean sent as a form field or a query value. */
export const Boolish = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

/**
 * A number in a query string: digits only (z.coerce.number() goes through Number(), which also
 * takes " 20\t", "0x14" and "2e1").
 */
export const WholeNumber = z.union([
  z.number(),
  z
    .string()
    .regex(/^[0-9]{1,9}$/, 'must be a whole number')
    .transform(Number),
]);

/** Control characters but line breaks: refused in text typed in a textarea. */
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_LINES = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Free text over several lines (a textarea): at most `max` characters, no other controls. */
export function multilineText(max: number) {
  return z
    .string()
    .max(max)
    .refine((s) => !CONTROL_BUT_LINES.test(s), NO_CONTROL);
}
