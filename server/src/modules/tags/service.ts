/** The rules of tags: one user's names, unique regardless of case, on that user's uploads only. */
import crypto from 'node:crypto';
import { identityKey, UPLOAD_TAG_LIMIT_MESSAGE, USER_TAG_LIMIT_MESSAGE } from '@upshot/contract';
import type { TagRow } from '../../db/schema.ts';
import { ConflictError, NotFoundError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { compareNames } from '../../lib/names.ts';
import type { Viewer } from '../../lib/caller.ts';
import type { TagsRepository } from './repository.ts';

export type TagsService = ReturnType<typeof createTagsService>;

const exists = (name: string) => new ConflictError(`Tag "${name}" already exists`);
const notFound = () => new NotFoundError('Tag not found');

export function createTagsService(deps: { tags: TagsRepository; clock: Clock }) {
  const { tags, clock } = deps;

  /** The caller's tag, or a 404 (another user's tag included). */
  async function require(viewer: Viewer, id: string): Promise<TagRow> {
    const tag = await tags.find(id, viewer.id);
    if (!tag) throw notFound();
    return tag;
  }

  async function attach(viewer: Viewer, tagId: string, ids: string[]) {
    const result = await tags.attach(tagId, viewer.id, ids);
    if (result === null) throw notFound();
    return result;
  }

  async function detach(viewer: Viewer, tagId: string, ids: string[]) {
    const removed = await tags.detach(tagId, viewer.id, ids);
    if (removed === null) throw notFound();
    return removed;
  }

  return {
    require,

    /** The caller's tags, by name as people sort them. */
    async list(viewer: Viewer): Promise<TagRow[]> {
      return (await tags.list(viewer.id)).sort((a, b) => compareNames(a.name, b.name));
    },

    async create(viewer: Viewer, name: string): Promise<TagRow> {
      const row = await tags.insert({
        id: crypto.randomUUID(),
        user_id: viewer.id,
        name,
        name_key: identityKey(name),
        created_at: clock.now().toISOString(),
      });
      if (row === 'exists') throw exists(name);
      if (row === 'limit') throw new ConflictError(USER_TAG_LIMIT_MESSAGE);
      return row;
    },

    async rename(viewer: Viewer, id: string, name: string): Promise<TagRow> {
      const row = await tags.rename(id, viewer.id, name);
      if (row === 'gone') throw notFound();
      if (row === 'exists') throw exists(name);
      return row;
    },

    async delete(viewer: Viewer, id: string): Promise<void> {
      if (!(await tags.delete(id, viewer.id))) throw notFound();
    },

    /**
     * Tags one upload of the caller's (a 404 for anyone else's, a 409 when it carries the most
     * tags it may); doing it again changes nothing.
     */
    async tagUpload(viewer: Viewer, tagId: string, uploadId: string): Promise<void> {
      const { owned, full } = await attach(viewer, tagId, [uploadId]);
      if (owned === 0) throw new NotFoundError('Upload not found');
      if (full > 0) throw new ConflictError(UPLOAD_TAG_LIMIT_MESSAGE);
    },

    async untagUpload(viewer: Viewer, tagId: string, uploadId: string): Promise<void> {
      await require(viewer, tagId);
      if (!(await tags.ownsUpload(uploadId, viewer.id))) {
        throw new NotFoundError('Upload not found');
      }
      await detach(viewer, tagId, [uploadId]);
    },

    /**
     * Ids that are not the caller's uploads are left out of every count; uploads that carry the
     * most tags they may are left as they are and counted apart.
     */
    async batchAdd(viewer: Viewer, tagId: string, ids: string[]) {
      const { owned, added, full } = await attach(viewer, tagId, ids);
      return { addedCount: added, skippedCount: owned - added - full, fullCount: full };
    },

    async batchRemove(viewer: Viewer, tagId: string, ids: string[]) {
      return { removedCount: await detach(viewer, tagId, ids) };
    },
  };
}
