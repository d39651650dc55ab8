import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSecretKey } from './secret-key.ts';

describe('resolveSecretKey', () => {
  it('generates a key once, keeps it with mode 0600 and returns the same one afterwards', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-key-'));
    const first = resolveSecretKey(undefined, dir);
    expect(first.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dir, 'secret.key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(resolveSecretKey(undefined, dir)).toBe(first);
    expect(fs.readdirSync(dir)).toEqual(['secret.key']);
    fs.rmSync(dir, { recursive: true });
  });

  it('prefers the configured key and writes nothing', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-key-'));
    expect(resolveSecretKey('x'.repeat(40), dir)).toBe('x'.repeat(40));
    expect(fs.readdirSync(dir)).toEqual([]);
    fs.rmSync(dir, { recursive: true });
  });
});
