/** String schemas every endpoint builds on: nothing that reaches the database carries a control character. */
import { z } from 'zod';
import { CONTROL_CHARACTERS } from './constants.ts';

const NO_CONTROL = 'must not contain control characters';
/** Bidirectional controls make `evil\u202Enimda` show as "eviladmin". */
export const NO_BIDI = 'must not contain bidirectional control characters';

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

/**
 * Scripts whose letters a name is told apart by: UTS #31's Recommended Scripts, those in
 * common modern use. A letter of any other script counts as one script, 'Other'.
 */
const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Georgian',
  'Hebrew',
  'Arabic',
  'Thaana',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Ethiopic',
  'Khmer',
  'Hangul',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Han',
];
/** One match per letter, in the group named after its script; Common and Inherited match none. */
const SCRIPT_OF = new RegExp(
  [
    ...SCRIPTS.map((s) => `(?<${s}>\\p{Script=${s}})`),
    '(?<Other>[^\\p{Script=Common}\\p{Script=Inherited}])',
  ].join('|'),
  'gu',
);
/** Scripts one writing system uses together (UTS #39's "highly restrictive" level). */
const SCRIPT_SETS = [
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
];

/**
 * Whether the letters of `value` (NFKC, as names are compared) come from more than one script,
 * other than Japanese, Chinese or Korean with Latin: `rооtadmin` with Cyrillic o's does, and
 * would pass for `rootadmin`. Digits and punctuation ('-', '_', '.') go with any script.
 */
export function mixesScripts(value: string): boolean {
  const scripts = new Set<string>();
  for (const match of value.normalize('NFKC').matchAll(SCRIPT_OF)) {
    for (const [script, letter] of Object.entries(match.groups ?? {})) {
      if (letter !== undefined) scripts.add(script);
    }
  }
  if (scripts.size <= 1) return false;
  return !SCRIPT_SETS.some((set) => [...scripts].every((s) => set.includes(s)));
}
