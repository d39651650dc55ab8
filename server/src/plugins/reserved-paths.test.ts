/**
 * The reserved first path segments (contract/src/constants.ts), which a custom URL may never
 * take: everything the app and the server answer, and the pages planned next. Here rather than
 * beside the constants because the contract has no test runner.
 */
import fs from 'node:fs';
import {
  isReservedPath,
  RESERVED_PATHS,
  ROUTES,
  SERVER_PREFIXES,
  SPA_ROUTES,
  VANITY_MAX,
  VANITY_MIN,
  VANITY_PATTERN,
} from '@upshot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { uploadFile } from '../../test/uploads.ts';
import { signIn } from '../../test/users.ts';

const firstSegment = (path: string) => path.split('/')[1] ?? '';

describe('RESERVED_PATHS', () => {
  it('holds the first segment of every SPA route', () => {
    const segments = SPA_ROUTES.map(firstSegment).filter((s) => s !== '');
    expect(segments.length).toBe(SPA_ROUTES.length - 1); // all but "/"
    expect(RESERVED_PATHS).toEqual(expect.arrayContaining(segments));
  });

  it('holds every prefix the server answers itself', () => {
    expect([...SERVER_PREFIXES]).toEqual(
      expect.arrayContaining(['api', 'thumb', 'assets', 'docs', 'health', 'metrics']),
    );
    expect(RESERVED_PATHS).toEqual(expect.arrayContaining([...SERVER_PREFIXES]));
  });

  it('holds every file at the root of web/public', () => {
    const publicDir = new URL('../../../web/public/', import.meta.url);
    const files = fs
      .readdirSync(publicDir, { withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => d.name);
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((name) => !isReservedPath(name))).toEqual([]);
  });

  it('holds the pages and link prefixes planned next', () => {
    const planned = ['tags', 'stats', 'users', 'invite', 'invites', 'register', 'reset', 'share'];
    planned.push('u', 'v', 'd', 'p', 't');
    expect(RESERVED_PATHS).toEqual(expect.arrayContaining(planned));
  });

  it('holds the first segment of every route in the table that is not a parameter', () => {
    const segments = Object.values(ROUTES)
      .map((r) => firstSegment(r.path))
      .filter((s) => s !== '' && !s.startsWith(':'));
    expect(segments).toContain('api');
    expect(segments).toContain('thumb');
    expect(segments.filter((s) => !isReservedPath(s))).toEqual([]);
  });

  it('is compared case-insensitively', () => {
    for (const word of RESERVED_PATHS) {
      expect(isReservedPath(word.toUpperCase()), word).toBe(true);
      expect(isReservedPath(word), word).toBe(true);
    }
    expect(isReservedPath('holiday-photos')).toBe(false);
  });
});

describe('a custom URL that is a reserved word', () => {
  let ctx: TestContext;
  let auth: Record<string, string>;
  let uploadId: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    ({ auth } = await signIn(ctx));
    const res = await uploadFile(ctx, auth, { filename: 'a.txt', data: Buffer.from('a') });
    uploadId = res.json().upload.id;
  });
  afterAll(() => ctx.close());

  const patch = (vanityUrl: string) =>
    ctx.app.inject({
      method: 'PATCH',
      url: `/api/uploads/${uploadId}`,
      headers: auth,
      payload: { vanityUrl },
    });
  const spellings = (word: string) => [
    ...new Set([
      word.toLowerCase(),
      word.toUpperCase(),
      [...word].map((c, i) => (i % 2 ? c.toLowerCase() : c.toUpperCase())).join(''),
    ]),
  ];
  // Reserved words a custom URL could otherwise spell; the others (one letter, a dot) are
  // refused by the format rules before the reserved list is consulted.
  const wellFormed = (w: string) =>
    w.length >= VANITY_MIN && w.length <= VANITY_MAX && VANITY_PATTERN.test(w);

  it('answers 409 "is reserved", in any case', async () => {
    const words = RESERVED_PATHS.filter(wellFormed);
    expect(words).toEqual(expect.arrayContaining(['api', 'thumb', 'dashboard', 'login']));
    const wrong: string[] = [];
    for (const word of words) {
      for (const spelling of spellings(word)) {
        const res = await patch(spelling);
        const body = res.json();
        if (
          res.statusCode !== 409 ||
          body.error !== 'conflict' ||
          body.message !== `"${spelling}" is reserved`
        ) {
          wrong.push(`${spelling}: ${res.statusCode} ${res.body}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('is refused (400) when it cannot be a custom URL at all, and never taken', async () => {
    const words = RESERVED_PATHS.filter((w) => !wellFormed(w));
    expect(words).toEqual(expect.arrayContaining(['u', 'favicon.svg']));
    for (const word of words) {
      for (const spelling of spellings(word)) {
        const res = await patch(spelling);
        expect(res.statusCode, spelling).toBe(400);
        expect(res.json().error, spelling).toBe('validation_error');
      }
    }
    const upload = await ctx.app.inject({
      method: 'GET',
      url: `/api/uploads/${uploadId}`,
      headers: auth,
    });
    expect(upload.json().vanityUrl).toBeNull();
  });
});
