/**
 * What the authorization matrix's cases work on: new things of the owner's made for one call
 * (an upload, a tag, a chunked session, an access request, an invitation), and reads, as the
 * owner or an administrator sees them, of whether a call's change was made.
 */
import type { LightMyRequestResponse } from 'fastify';
import { verifyPassword } from '../src/lib/passwords.ts';
import type { People, Person } from './callers.ts';
import { sendChunk } from './chunked-uploads.ts';
import type { TestContext } from './context.ts';
import type { TestSmtp } from './mail.ts';
import { multipart } from './uploads.ts';

export type Resources = {
  /** The owner's private PNG (with its thumbnail made) and a public one. */
  privateUpload: { id: string; shortCode: string };
  publicUpload: { id: string; shortCode: string };
  /** The private upload's deletion link signature. */
  deletionSignature: string;
};

export type World = {
  ctx: TestContext;
  people: People;
  /** The caller's own account (the owner's for a caller who is nobody). */
  self: Person;
  resources: Resources;
  smtp: TestSmtp;
};

let seq = 0;
export const unique = (prefix: string) => `${prefix}-${++seq}-${Date.now().toString(36)}`;
const asOwner = (w: World) => ({ authorization: `Bearer ${w.people.owner.session}` });
const asAdmin = (w: World) => ({ authorization: `Bearer ${w.people.admin.session}` });

async function ok<T>(res: LightMyRequestResponse, status: number): Promise<T> {
  if (res.statusCode !== status) throw new Error(`setup: ${res.statusCode} ${res.body}`);
  return status === 204 ? (undefined as T) : res.json<T>();
}
const asOwnerGet = (w: World, url: string) =>
  w.ctx.app.inject({ method: 'GET', url, headers: asOwner(w) });

// --- New things of the owner's ---------------------------------------------------------------

/** A new private upload of the owner's, with its deletion link. */
export async function newUpload(w: World) {
  const body = multipart(
    { isPublic: 'false' },
    { filename: 'note.txt', contentType: 'text/plain', data: Buffer.from('hello') },
  );
  const res = await w.ctx.app.inject({
    method: 'POST',
    url: '/api/upload',
    headers: { ...asOwner(w), ...body.headers },
    payload: body.payload,
  });
  return ok<{ upload: { id: string }; deletionUrl: string }>(res, 201);
}
export const newUploadId = async (w: World) => (await newUpload(w)).upload.id;

export async function newTag(w: World): Promise<string> {
  const res = await w.ctx.app.inject({
    method: 'POST',
    url: '/api/tags',
    headers: asOwner(w),
    payload: { name: unique('tag') },
  });
  return (await ok<{ tag: { id: string } }>(res, 201)).tag.id;
}

/** A new upload of the owner's with a new tag of theirs on it. */
export async function taggedUpload(w: World) {
  const [tagId, uploadId] = [await newTag(w), await newUploadId(w)];
  const res = await w.ctx.app.inject({
    method: 'POST',
    url: `/api/tags/${tagId}/uploads/${uploadId}`,
    headers: asOwner(w),
  });
  await ok(res, 200);
  return { tagId, uploadId };
}

/** A chunked session of the owner's for five bytes in one chunk, sent already or not. */
export async function newSession(w: World, sent: boolean): Promise<string> {
  const res = await w.ctx.app.inject({
    method: 'POST',
    url: '/api/chunked-upload/init',
    headers: asOwner(w),
    payload: {
      filename: `${unique('big')}.txt`,
      mimeType: 'text/plain',
      totalSize: 5,
      totalChunks: 1,
    },
  });
  const { uploadId } = await ok<{ uploadId: string }>(res, 201);
  if (sent) await ok(await sendChunk(w.ctx, asOwner(w), uploadId, 0, Buffer.from('hello')), 204);
  return uploadId;
}

/** A new pending access request; answers its id. */
export async function pendingRequest(w: World): Promise<string> {
  const email = `${unique('visitor')}@example.com`;
  const res = await w.ctx.app.inject({
    method: 'POST',
    url: '/api/access-requests',
    payload: { email, name: 'A Visitor', reason: 'To share files' },
    remoteAddress: `10.78.${seq % 250}.${(seq * 7) % 250}`,
  });
  await ok(res, 201);
  const row = await w.ctx.handle.db
    .selectFrom('access_requests')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A new user an administrator invited: the invitation code. */
export async function inviteCode(w: World): Promise<string> {
  const name = unique('invitee');
  const res = await w.ctx.app.inject({
    method: 'POST',
    url: '/api/users',
    headers: asAdmin(w),
    payload: { email: `${name}@example.com`, username: name, role: 'user', sendInvite: true },
  });
  return (await ok<{ inviteCode: string }>(res, 201)).inviteCode;
}

// --- Whether a change was made ---------------------------------------------------------------

type UploadJson = { vanityUrl: string | null; isPublic: boolean; tags: { id: string }[] };

/** The upload as its owner sees it; null once it is gone. */
export async function ownersUpload(w: World, id: string): Promise<UploadJson | null> {
  const res = await asOwnerGet(w, `/api/uploads/${id}`);
  return res.statusCode === 404 ? null : ok<UploadJson>(res, 200);
}

export async function ownersTag(w: World, id: string) {
  const res = await asOwnerGet(w, '/api/tags');
  const { tags } = await ok<{ tags: { id: string; name: string }[] }>(res, 200);
  return tags.find((t) => t.id === id) ?? null;
}

export const isTagged = async (w: World, uploadId: string, tagId: string) =>
  Boolean((await ownersUpload(w, uploadId))?.tags.some((t) => t.id === tagId));

/** A chunked session as its owner sees it; null once it is gone or completed. */
export async function ownersSession(w: World, id: string) {
  const res = await asOwnerGet(w, `/api/chunked-upload/${id}`);
  return res.statusCode === 404 ? null : ok<{ receivedChunks: number[] }>(res, 200);
}

/** Whether a chunked session of the owner's became an upload (found by its unique name). */
export async function completed(w: World, id: string): Promise<boolean> {
  const res = await asOwnerGet(w, `/api/chunked-upload/${id}`);
  const { filename } = await ok<{ filename: string }>(res, 200);
  const list = await asOwnerGet(w, `/api/uploads?search=${encodeURIComponent(filename)}`);
  return (await ok<{ total: number }>(list, 200)).total > 0;
}

/** The owner's account as its row stands; null once it is gone. */
export const ownerRow = (w: World) =>
  w.ctx.handle.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', w.people.owner.user.id)
    .executeTakeFirst()
    .then((row) => row ?? null);

export const passwordIs = async (w: World, userId: string, password: string) => {
  const row = await w.ctx.handle.db
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return verifyPassword(row.password_hash, password);
};

export const requestStatus = async (w: World, id: string) =>
  (
    await w.ctx.handle.db
      .selectFrom('access_requests')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirst()
  )?.status ?? null;
