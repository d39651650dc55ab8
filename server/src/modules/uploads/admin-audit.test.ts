/**
 * An administrator's actions on another user's uploads go to the audit log, one entry per
 * upload: opening a private file through its link (a view: a GET from the first byte), a signed
 * link, a custom URL changed, a delete, each upload of a batch delete, and a preview page that
 * holds the file's text. The same actions by the owner, administrator or not, record nothing.
 */
import type { AuditEntry, Upload, UploadResponse } from '@upshot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { uploadFile } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';

type Auth = Record<string, string>;
type SignedIn = Awaited<ReturnType<typeof signIn>>;

let ctx: TestContext;
let admin: SignedIn;
let owner: SignedIn;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://up.example.com' });
  admin = await signIn(ctx, 'admin');
  owner = await signIn(ctx);
});
afterAll(() => ctx.close());

let n = 0;
async function upload(auth: Auth, isPublic = false): Promise<Upload> {
  n += 1;
  const res = await uploadFile(
    ctx,
    auth,
    { filename: `report-${n}.txt`, contentType: 'text/plain', data: Buffer.from(`contents ${n}`) },
    { isPublic: String(isPublic) },
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json<UploadResponse>().upload;
}

/** The audit entries about these uploads, as an administrator reads them over HTTP. */
async function entriesAbout(uploads: Upload[]): Promise<AuditEntry[]> {
  const res = await ctx.app.inject({
    method: 'GET',
    url: '/api/audit-log?limit=100',
    headers: admin.auth,
  });
  expect(res.statusCode, res.body).toBe(200);
  const ids = new Set(uploads.map((u) => u.id));
  return res.json<{ entries: AuditEntry[] }>().entries.filter((e) => ids.has(e.targetId ?? ''));
}

/** What was recorded about these uploads, as action:filename, sorted. */
async function recorded(uploads: Upload[]): Promise<string[]> {
  return (await entriesAbout(uploads)).map((e) => `${e.action}:${e.targetLabel}`).sort();
}

/** Every action the audit covers, by `actor` on `up` (another for the batch). */
async function actOn(actor: Auth, up: Upload, batch: Upload[]) {
  const get = (headers: Auth) =>
    ctx.app.inject({ method: 'GET', url: `/${up.shortCode}`, headers: { ...actor, ...headers } });
  expect((await get({})).statusCode).toBe(200);
  // Not views: HEAD, a resumed download, a copy that is current.
  expect(
    (await ctx.app.inject({ method: 'HEAD', url: `/${up.shortCode}`, headers: actor })).statusCode,
  ).toBe(200);
  expect((await get({ range: 'bytes=3-' })).statusCode).toBe(206);
  expect((await get({ 'if-none-match': `"${up.id}"` })).statusCode).toBe(304);

  const signed = await ctx.app.inject({
    method: 'GET',
    url: `/api/uploads/${up.id}/access-url`,
    headers: actor,
  });
  expect(signed.statusCode, signed.body).toBe(200);
  const vanity = await ctx.app.inject({
    method: 'PATCH',
    url: `/api/uploads/${up.id}`,
    headers: actor,
    payload: { vanityUrl: `audited-${up.id.slice(0, 8)}` },
  });
  expect(vanity.statusCode, vanity.body).toBe(200);
  const deleted = await ctx.app.inject({
    method: 'DELETE',
    url: `/api/uploads/${up.id}`,
    headers: actor,
  });
  expect(deleted.statusCode, deleted.body).toBe(204);
  const batchDeleted = await ctx.app.inject({
    method: 'POST',
    url: '/api/uploads/batch/delete',
    headers: actor,
    payload: { uploadIds: batch.map((u) => u.id) },
  });
  expect(batchDeleted.json()).toEqual({ deletedCount: batch.length });
}

describe("an administrator's actions on another user's uploads", () => {
  it('each make exactly one entry per upload, naming the file and its owner', async () => {
    const up = await upload(owner.auth);
    const batch = [await upload(owner.auth), await upload(owner.auth, true)];
    await actOn(admin.auth, up, batch);

    expect(await recorded([up, ...batch])).toEqual(
      [
        `upload.read:${up.originalFilename}`,
        `upload.link_signed:${up.originalFilename}`,
        `upload.vanity_changed:${up.originalFilename}`,
        `upload.deleted:${up.originalFilename}`,
        `upload.deleted:${batch[0]!.originalFilename}`,
        `upload.deleted:${batch[1]!.originalFilename}`,
      ].sort(),
    );
    const entries = await entriesAbout([up, ...batch]);
    for (const e of entries) {
      expect(e.targetType).toBe('upload');
      expect(e.actorId).toBe(admin.user.id);
      expect(e.details).toMatchObject({ owner: owner.user.username, ownerId: owner.user.id });
    }
    const vanity = entries.find((e) => e.action === 'upload.vanity_changed')!;
    expect(vanity.targetId).toBe(up.id);
    expect(vanity.details.vanityUrl).toEqual({ from: null, to: `audited-${up.id.slice(0, 8)}` });
  });

  it('opening a public file through its link records nothing', async () => {
    const up = await upload(owner.auth, true);
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/${up.shortCode}`,
      headers: admin.auth,
    });
    expect(res.statusCode).toBe(200);
    expect(await recorded([up])).toEqual([]);
  });
});

describe("an administrator's look at another user's private preview page", () => {
  const preview = (up: Upload, method: 'GET' | 'HEAD' = 'GET') =>
    ctx.app.inject({ method, url: `/v/${up.shortCode}`, headers: admin.auth });

  it('records a read when the page holds the text, as the raw link does', async () => {
    const up = await upload(owner.auth);
    const res = await preview(up);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`contents ${n}`);
    expect(await recorded([up])).toEqual([`upload.read:${up.originalFilename}`]);
  });

  it('records nothing for a HEAD, a public text, or a page that holds no bytes', async () => {
    const text = await upload(owner.auth);
    expect((await preview(text, 'HEAD')).statusCode).toBe(200);
    const open = await upload(owner.auth, true);
    expect((await preview(open)).statusCode).toBe(200);
    // A picture's page names it; its bytes come from the raw link, which records the read.
    const picture = await uploadFile(
      ctx,
      owner.auth,
      { filename: 'private.png', contentType: 'image/png', data: Buffer.from('not a png') },
      { isPublic: 'false' },
    );
    expect(picture.statusCode, picture.body).toBe(201);
    const png = picture.json<UploadResponse>().upload;
    expect((await preview(png)).statusCode).toBe(200);
    expect(await recorded([text, open, png])).toEqual([]);
  });
});

describe('the same actions by the owner', () => {
  it('record nothing, for a user', async () => {
    const up = await upload(owner.auth);
    const batch = [await upload(owner.auth), await upload(owner.auth)];
    await actOn(owner.auth, up, batch);
    expect(await recorded([up, ...batch])).toEqual([]);
  });

  it('record nothing, for an administrator', async () => {
    const up = await upload(admin.auth);
    const batch = [await upload(admin.auth), await upload(admin.auth)];
    await actOn(admin.auth, up, batch);
    expect(await recorded([up, ...batch])).toEqual([]);
  });
});
