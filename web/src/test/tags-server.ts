// The Uploads page tests' stand-in for the tag endpoints (tags and uploads kept as the server
// would keep them), and the queries those tests share.
import type { Tag, TagSummary, Upload } from '@upshot/contract';
import { jsonResponse, mockFetch } from './fetch-mock.ts';
import { makePreferences, makeServerConfig, makeUpload, makeUser } from './fixtures.ts';
import { screen, within } from '@testing-library/react';
import { renderApp } from './render-app.tsx';

type Failable =
  'createTag' | 'renameTag' | 'deleteTag' | 'addTag' | 'removeTag' | 'batchAdd' | 'batchRemove';

export const serverError = () => jsonResponse(500, { error: 'internal_error', message: 'boom' });

/** Tags and uploads kept as the server would keep them; `fail` makes one endpoint refuse. */
export function fakeServer(uploads: Upload[], tagNames: string[]) {
  let next = 1;
  const tags: Tag[] = tagNames.map((name) => ({ id: `t${next++}`, name }));
  const fail: Partial<Record<Failable, () => Response>> = {};
  const fold = (s: string) => s.toLowerCase();
  const taken = (name: string, except?: string) =>
    tags.some((t) => t.id !== except && fold(t.name) === fold(name));
  const conflict = (name: string) =>
    jsonResponse(409, { error: 'conflict', message: `Tag "${name}" already exists` });
  const summary = (tag: Tag): TagSummary => ({
    ...tag,
    uploadCount: uploads.filter((u) => u.tags.some((t) => t.id === tag.id)).length,
  });
  const tagById = (id: string | undefined) => tags.find((t) => t.id === id);
  const uploadById = (id: string | undefined) => uploads.find((u) => u.id === id);
  const sortTags = (list: Tag[]) => list.sort((a, b) => fold(a.name).localeCompare(fold(b.name)));
  // A clone: the test reads the recorded request's body too.
  const body = async <T>(request: Request) => (await request.clone().json()) as T;

  const handlers: Parameters<typeof mockFetch>[0] = {
    'GET /api/tags': () => jsonResponse(200, { tags: sortTags([...tags]).map(summary) }),
    'POST /api/tags': async (request) => {
      if (fail.createTag) return fail.createTag();
      const name = (await body<{ name: string }>(request)).name.trim();
      if (taken(name)) return conflict(name);
      const tag = { id: `t${next++}`, name };
      tags.push(tag);
      return jsonResponse(201, { tag: summary(tag) });
    },
    'PATCH /api/tags/:tagId': async (request, { tagId }) => {
      if (fail.renameTag) return fail.renameTag();
      const tag = tagById(tagId);
      const name = (await body<{ name: string }>(request)).name.trim();
      if (!tag) return jsonResponse(404, { error: 'not_found', message: 'Tag not found' });
      if (taken(name, tag.id)) return conflict(name);
      tag.name = name;
      for (const u of uploads) u.tags = u.tags.map((t) => (t.id === tag.id ? { ...tag } : t));
      return jsonResponse(200, { tag: summary(tag) });
    },
    'DELETE /api/tags/:tagId': (_request, { tagId }) => {
      if (fail.deleteTag) return fail.deleteTag();
      tags.splice(
        tags.findIndex((t) => t.id === tagId),
        1,
      );
      for (const u of uploads) u.tags = u.tags.filter((t) => t.id !== tagId);
      return jsonResponse(204);
    },
    'POST /api/tags/:tagId/uploads/:uploadId': (_request, { tagId, uploadId }) => {
      if (fail.addTag) return fail.addTag();
      const tag = tagById(tagId);
      const upload = uploadById(uploadId);
      if (!tag || !upload) return jsonResponse(404, { error: 'not_found', message: 'Not found' });
      if (!upload.tags.some((t) => t.id === tag.id)) {
        upload.tags = sortTags([...upload.tags, { ...tag }]);
      }
      return jsonResponse(200, upload);
    },
    'DELETE /api/tags/:tagId/uploads/:uploadId': (_request, { tagId, uploadId }) => {
      if (fail.removeTag) return fail.removeTag();
      const upload = uploadById(uploadId)!;
      upload.tags = upload.tags.filter((t) => t.id !== tagId);
      return jsonResponse(200, upload);
    },
    'POST /api/uploads/batch/add-tag': async (request) => {
      if (fail.batchAdd) return fail.batchAdd();
      const { uploadIds, tagId } = await body<{ uploadIds: string[]; tagId: string }>(request);
      const tag = tagById(tagId)!;
      let addedCount = 0;
      let skippedCount = 0;
      for (const upload of uploadIds.map(uploadById)) {
        if (!upload) continue;
        if (upload.tags.some((t) => t.id === tagId)) {
          skippedCount++;
        } else {
          upload.tags = sortTags([...upload.tags, { ...tag }]);
          addedCount++;
        }
      }
      return jsonResponse(200, { addedCount, skippedCount });
    },
    'POST /api/uploads/batch/remove-tag': async (request) => {
      if (fail.batchRemove) return fail.batchRemove();
      const { uploadIds, tagId } = await body<{ uploadIds: string[]; tagId: string }>(request);
      let removedCount = 0;
      for (const upload of uploadIds.map(uploadById)) {
        if (upload?.tags.some((t) => t.id === tagId)) {
          upload.tags = upload.tags.filter((t) => t.id !== tagId);
          removedCount++;
        }
      }
      return jsonResponse(200, { removedCount });
    },
    'GET /api/uploads': (request) => {
      const tag = new URL(request.url).searchParams.get('tag');
      if (tag && !tagById(tag)) {
        return jsonResponse(404, { error: 'not_found', message: 'Tag not found' });
      }
      const listed = tag ? uploads.filter((u) => u.tags.some((t) => t.id === tag)) : uploads;
      // Copies, as JSON would make them: the app never holds the server's objects.
      const copies = structuredClone(listed);
      return jsonResponse(200, { uploads: copies, total: copies.length, page: 1, limit: 20 });
    },
  };
  return {
    handlers,
    tags,
    uploads,
    fail,
    tagNamed: (name: string) => tags.find((t) => t.name === name)!,
  };
}

export type Server = ReturnType<typeof fakeServer>;

export function renderUploads(server: Server, path = '/uploads') {
  localStorage.setItem('auth_token', 'tok');
  const network = mockFetch({
    'GET /api/auth/me': () => jsonResponse(200, makeUser()),
    'GET /api/config': () => jsonResponse(200, makeServerConfig()),
    'GET /api/preferences': () => jsonResponse(200, { preferences: makePreferences() }),
    ...server.handlers,
  });
  const sent = (method: string, path: string) =>
    network.requests.filter((r) => r.method === method && new URL(r.url).pathname === path);
  const listQueries = () =>
    sent('GET', '/api/uploads').map((r) => Object.fromEntries(new URL(r.url).searchParams));
  const writes = () =>
    network.requests
      .filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${new URL(r.url).pathname}`);
  return { ...renderApp(path), ...network, sent, listQueries, writes };
}

export const tagged = (name: string, tags: Tag[] = [], id = name) =>
  makeUpload({ id, originalFilename: name, tags });

export async function openCard(name: string) {
  const card = await screen.findByRole('article', { name });
  const input = within(card).getByRole('combobox', { name: `Add tag to ${name}` });
  return { card, input };
}

export const optionNames = () =>
  within(screen.getByRole('listbox', { name: 'Tag suggestions' }))
    .getAllByRole('option')
    .map((option) => option.textContent);

export const badges = (card: HTMLElement) =>
  within(card).queryByRole('list', { name: 'Tags' })
    ? within(within(card).getByRole('list', { name: 'Tags' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent)
    : [];
