/** Tags for API tests: made, listed and put on uploads over HTTP; their rows read directly. */
import { expect } from 'vitest';
import type { TestContext } from './context.ts';
import { uploadFile } from './uploads.ts';

type Auth = Record<string, string>;
export type TagJson = { id: string; name: string; uploadCount: number };
export type UploadJson = {
  id: string;
  originalFilename: string;
  shortCode: string;
  size: number;
  views: number;
  createdAt: string;
  tags: { id: string; name: string }[];
};

/** POST /api/tags; expects 201 and answers the tag. */
export async function createTag(ctx: TestContext, auth: Auth, name: string): Promise<TagJson> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/tags',
    headers: auth,
    payload: { name },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ tag: TagJson }>().tag;
}

/** GET /api/tags; expects 200 and answers the tags. */
export async function listTags(ctx: TestContext, auth: Auth): Promise<TagJson[]> {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/tags', headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ tags: TagJson[] }>().tags;
}

/** POST /api/tags/{tagId}/uploads/{uploadId}; expects 200 and answers the upload. */
export async function tagUpload(
  ctx: TestContext,
  auth: Auth,
  tagId: string,
  uploadId: string,
): Promise<UploadJson> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/tags/${tagId}/uploads/${uploadId}`,
    headers: auth,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<UploadJson>();
}

/** GET /api/uploads/{id}; expects 200 and answers the upload. */
export async function getUpload(ctx: TestContext, auth: Auth, id: string): Promise<UploadJson> {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/uploads/${id}`, headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<UploadJson>();
}

/** Uploads a file of `size` bytes over HTTP; expects 201 and answers the upload. */
export async function put(
  ctx: TestContext,
  auth: Auth,
  filename: string,
  size = 10,
  contentType?: string,
  fields: Record<string, string> = {},
): Promise<UploadJson> {
  const res = await uploadFile(
    ctx,
    auth,
    { filename, contentType, data: Buffer.alloc(size) },
    fields,
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ upload: UploadJson }>().upload;
}

/** The upload ids a tag is on, from its rows (sorted). */
export async function taggedIds(ctx: TestContext, tagId: string): Promise<string[]> {
  const rows = await ctx.handle.db
    .selectFrom('upload_tags')
    .select('upload_id')
    .where('tag_id', '=', tagId)
    .orderBy('upload_id')
    .execute();
  return rows.map((r) => r.upload_id);
}

/** Every tag row of these uploads, "tagId:uploadId", sorted. */
export async function tagRowsOf(ctx: TestContext, uploadIds: string[]): Promise<string[]> {
  if (uploadIds.length === 0) return [];
  const rows = await ctx.handle.db
    .selectFrom('upload_tags')
    .select(['tag_id', 'upload_id'])
    .where('upload_id', 'in', uploadIds)
    .execute();
  return rows.map((r) => `${r.tag_id}:${r.upload_id}`).sort();
}
