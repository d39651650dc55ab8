/**
 * One gate for every route that serves an upload's bytes: the routes are read from the route
 * table (every entry marked servesUploadBytes), and each is asked, by GET, HEAD and a range, for
 * a password-protected, an expired, a used-up and a private upload, as a visitor. A public route
 * that takes a path parameter and is not marked must say here why it serves no bytes, so a new
 * route cannot slip past the gate unnoticed.
 */
import { ROUTES, type RouteName, type Upload } from '@upshot/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { linkPath, uploadWith, visitor, type Auth } from '../../../test/links.ts';
import { signIn } from '../../../test/users.ts';

/** How a byte route asks for an upload: a byte route missing here fails the test. */
const REQUESTS: Partial<Record<RouteName, (u: Upload) => string>> = {
  file: (u) => linkPath(u),
  thumbnail: (u) => `/thumb/${u.shortCode}`,
  preview: (u) => `/v/${u.shortCode}`,
};

/** Public routes with a path parameter that serve no upload's bytes, and why. */
const NOT_BYTES: Partial<Record<RouteName, string>> = {
  inviteInfo: 'names who an invitation is for',
  deletionPage: "a confirmation page, opened by the upload's deletion signature",
  deleteByLink: "deletes, by the upload's deletion signature",
  unlockFile: 'takes a password and answers a redirect or a page, never the bytes',
  unlockPreview: 'takes a password and answers a redirect or a page, never the bytes',
};

const byteRoutes = (Object.entries(ROUTES) as [RouteName, (typeof ROUTES)[RouteName]][]).filter(
  ([, r]) => 'servesUploadBytes' in r && r.servesUploadBytes,
);

let ctx: TestContext;
let owner: Auth;
let png: Buffer;
beforeAll(async () => {
  ctx = await createTestContext();
  ({ auth: owner } = await signIn(ctx));
  png = await sharp({ create: { width: 48, height: 32, channels: 3, background: '#225588' } })
    .png()
    .toBuffer();
});
afterAll(() => ctx.close());

const image = (fields: Record<string, string>) =>
  uploadWith(ctx, owner, fields, { filename: 'pic.png', contentType: 'image/png', data: png });

describe('the route table', () => {
  it('marks the links module routes that serve bytes, and every such route has a request here', () => {
    expect(byteRoutes.map(([name]) => name).sort()).toEqual(Object.keys(REQUESTS).sort());
  });

  it('leaves no public route with a path parameter unaccounted for', () => {
    const unaccounted = (Object.entries(ROUTES) as [RouteName, { access: string; path: string }][])
      .filter(([, r]) => r.access === 'public' && r.path.includes(':'))
      .map(([name]) => name)
      .filter((name) => !(name in REQUESTS) && !(name in NOT_BYTES));
    expect(unaccounted).toEqual([]);
  });
});

describe('every byte route, through the one gate', () => {
  let uploads: Record<'open' | 'protected' | 'expired' | 'usedUp' | 'private', Upload>;
  let thumbnail: Buffer;
  beforeAll(async () => {
    uploads = {
      open: await image({}),
      protected: await image({ password: 'gatekeeper' }),
      expired: await image({ expires: '1h' }),
      usedUp: await image({ maxViews: '1' }),
      private: await image({ isPublic: 'false' }),
    };
    await ctx.background.drain(); // the thumbnails
    // What a refusal must not carry: the thumbnail as the open upload serves it.
    const open = await visitor(ctx, '198.18.0.3').get(`/thumb/${uploads.open.shortCode}`);
    expect(open.statusCode).toBe(200);
    thumbnail = open.rawPayload;
    expect((await visitor(ctx, '198.18.0.1').get(linkPath(uploads.usedUp))).statusCode).toBe(200);
    ctx.clock.advance(60 * 60 * 1000);
  });

  const expected = { open: 200, protected: 401, expired: 410, usedUp: 410, private: 404 };
  const ways = [
    { how: 'GET', send: (v: ReturnType<typeof visitor>, url: string) => v.get(url) },
    { how: 'HEAD', send: (v: ReturnType<typeof visitor>, url: string) => v.head(url) },
    {
      how: 'a range',
      send: (v: ReturnType<typeof visitor>, url: string) => v.get(url, { range: 'bytes=2-9' }),
    },
  ];

  for (const [name] of byteRoutes) {
    for (const kind of Object.keys(expected) as (keyof typeof expected)[]) {
      it(`${name}: a visitor gets ${expected[kind]} for the ${kind} upload, by GET, HEAD and a range`, async () => {
        const request = REQUESTS[name];
        if (!request) throw new Error(`no request for the byte route ${name}: add one above`);
        for (const { how, send } of ways) {
          const res = await send(visitor(ctx, '198.18.0.2'), request(uploads[kind]));
          const status = res.statusCode === 206 ? 200 : res.statusCode;
          expect(status, `${name} ${kind} by ${how}`).toBe(expected[kind]);
          if (expected[kind] !== 200 && how !== 'HEAD') {
            // Nothing of the file: not its bytes, not its thumbnail's, not its name.
            expect(res.rawPayload.includes(png.subarray(48, 80))).toBe(false);
            expect(res.rawPayload.includes(thumbnail.subarray(-32))).toBe(false);
            expect(res.body).not.toContain('pic.png');
          }
        }
      });
    }
  }
});
