/**
 * What a broken or hostile client sends: control characters in every string a schema takes,
 * and bodies that are not JSON. The string fields come from the contract's schemas, so a
 * field added later is covered without touching the tests.
 */
import { z } from 'zod';

/** C0 and C1 controls: NUL first, then the whitespace ones a lenient parser might trim. */
export const CONTROL_SAMPLES = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\u000b',
  '\r',
  '\u001b',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u009f',
] as const;

/** A control character alone, and before, inside and after a plausible value. */
export function withControl(value: string, control: string): string[] {
  const mid = Math.floor(value.length / 2);
  return [
    control,
    control + value,
    value.slice(0, mid) + control + value.slice(mid),
    value + control,
  ];
}

export type FieldPath = (string | number)[];

type JsonSchema = {
  type?: string | string[];
  format?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
};

function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

function isBinary(node: JsonSchema): boolean {
  return node.format === 'binary';
}

function takesString(node: JsonSchema): boolean {
  if (isBinary(node)) return false;
  const types = [node.type ?? []].flat();
  if (types.includes('string')) return true;
  return [...(node.anyOf ?? []), ...(node.oneOf ?? [])].some(takesString);
}

/** The path of every string a schema takes, through object properties and array items. */
export function stringPaths(schema: z.ZodType): FieldPath[] {
  const root = jsonSchemaOf(schema);
  const resolve = (node: JsonSchema): JsonSchema =>
    node.$ref?.startsWith('#/$defs/') ? (root.$defs?.[node.$ref.slice(8)] ?? node) : node;
  const paths: FieldPath[] = [];
  const walk = (raw: JsonSchema, at: FieldPath) => {
    const node = resolve(raw);
    if (node.properties) {
      for (const [key, child] of Object.entries(node.properties)) walk(child, [...at, key]);
    } else if (node.items) {
      walk(node.items, [...at, 0]);
    } else if (takesString(node)) {
      paths.push(at);
    }
  };
  walk(root, []);
  return paths;
}

/** The multipart form's text fields and its file field. */
export function formFields(form: z.ZodObject): { fields: string[]; file: string } {
  const properties = jsonSchemaOf(form).properties ?? {};
  const file = Object.keys(properties).find((k) => isBinary(properties[k]!));
  if (!file) throw new Error('a form without a file field');
  return { fields: Object.keys(properties).filter((k) => k !== file), file };
}

/** A copy of `value` with the field at `path` replaced. */
export function setAt<T>(value: T, path: FieldPath, replacement: unknown): T {
  const copy = structuredClone(value);
  if (path.length === 0) return replacement as T;
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]!] = replacement;
  return copy;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Bodies a JSON parser must refuse, whatever endpoint they are sent to. */
const BROKEN_JSON = [
  '',
  ' ',
  '{',
  '}',
  '[',
  ']',
  '{"',
  '{"a"',
  '{"a":',
  '{"a":}',
  '{,}',
  '[,]',
  '{"a":1,}',
  '[1,]',
  '{"a":1 "b":2}',
  "{'a':1}",
  '{a:1}',
  '{"a":tru}',
  'nul',
  'undefined',
  'NaN',
  '-Infinity',
  '01',
  '{"a":01}',
  '{"a":.5}',
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '{"a":"unterminated}',
  '{"a":"line\nbreak"}',
  '{"a":"nul\u0000byte"}',
  '\u0000',
  '/* comment */ {}',
  '{} {}',
  '{}garbage',
  '['.repeat(100_000),
  `${'{"a":'.repeat(20_000)}1${'}'.repeat(19_999)}`,
];

/** Valid JSON the parser refuses anyway: prototype poisoning. */
const POISONED_JSON = [
  '{"__proto__":{"role":"admin"}}',
  '{"constructor":{"prototype":{"role":"admin"}}}',
];

/** A deterministic generator (mulberry32), so a failure names the same bodies every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` bodies that are not JSON, made from a valid one: the fixed list, cuts of the valid
 * body at evenly spaced points, then random damage (a character replaced, dropped or doubled).
 */
export function malformedJson(valid: string, count: number, seed = 1): string[] {
  const out = new Set<string>([...BROKEN_JSON, ...POISONED_JSON]);
  const cuts = 12;
  for (let i = 1; i <= cuts; i += 1) {
    const cut = valid.slice(0, Math.floor((valid.length * i) / (cuts + 1)));
    if (!isJson(cut)) out.add(cut);
  }
  const next = random(seed);
  const noise = '{}[]",:\\ 0-.tn\u0000\ufffd';
  for (let tries = 0; out.size < count && tries < count * 100; tries += 1) {
    const at = Math.floor(next() * valid.length);
    const ch = noise[Math.floor(next() * noise.length)]!;
    const kind = Math.floor(next() * 3);
    const damaged =
      kind === 0
        ? valid.slice(0, at) + ch + valid.slice(at + 1)
        : kind === 1
          ? valid.slice(0, at) + valid.slice(at + 1)
          : valid.slice(0, at) + ch + valid.slice(at);
    if (!isJson(damaged)) out.add(damaged);
  }
  return [...out].slice(0, count);
}
