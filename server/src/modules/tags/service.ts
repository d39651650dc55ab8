/** The rules of tags: one user's names, unique regardless of case, on that user's uploads only. */
import crypto from 'node:crypto';
import { identityKey } from '@upshot/contract';
import { ConflictError, NotFoundError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Viewer } from '../users/index.ts';
import type { TagsRepository, TagWithCount } from './repository.ts';

export type TagsService = ReturnType<typeof createTagsService>;

const exists = (name: string) => new ConflictError(`Tag "${name}" already exists`);

export function createTagsService(deps: { tags: TagsRepository; clock: Clock }) {
  const { tags, clock } = deps;

  /** The caller's tag, or a 404 (another user's tag included). */
  async function require(viewer: Viewer, id: string): Promise<TagWithCount> {
    const tag = await tags.find(id, viewer.id);
    if (!tag) throw new NotFoundError('Tag not found');
    return tag;
  }

  /** Tags those of the caller's uploads among ids that lack it. */
  async function attach(viewer: Viewer, tagId: string, ids: string[]) {
    await require(viewer, tagId);
    const result = await tags.attach(tagId, viewer.id, ids);
    if (result === null) throw new NotFoundError('Tag not found'); // deleted meanwhile
    return result;
  }

  return {
    require,
    list: (viewer: Viewer) => tags.list(viewer.id),

    async create(viewer: Viewer, name: string): Promise<TagWithCount> {
      const row = await tags.insert({
        id: crypto.randomUUID(),
        user_id: viewer.id,
        name,
        name_key: identityKey(name),
        created_at: clock.now().toISOString(),
      });
      if (row === 'exists') throw exists(name);
      return { ...row, upload_count: 0 };
    },

    async rename(viewer: Viewer, id: string, name: string): Promise<TagWithCount> {
      const row = await tags.rename(id, viewer.id, name);
      if (row === 'gone') throw new NotFoundError('Tag not found');
      if (row === 'exists') throw exists(name);
      return require(viewer, row.id);
    },

    async delete(viewer: Viewer, id: string): Promise<void> {
      if (!(await tags.delete(id, viewer.id))) throw new NotFoundError('Tag not found');
    },

    /** Tags one upload of the caller's (a 404 for anyone else's); doing it again changes nothing. */
    async tagUpload(viewer: Viewer, tagId: string, uploadId: string): Promise<void> {
      const { owned } = await attach(viewer, tagId, [uploadId]);
      if (owned === 0) throw new NotFoundError('Upload not found');
    },

    async untagUpload(viewer: Viewer, tagId: string, uploadId: string): Promise<void> {
      await require(viewer, tagId);
      if ((await tags.ownedUploadIds([uploadId], viewer.id)).length === 0) {
        throw new NotFoundError('Upload not found');
      }
      await tags.detach(tagId, [uploadId]);
    },

    /** Ids that are not the caller's uploads are left out of both counts. */
    async batchAdd(viewer: Viewer, tagId: string, ids: string[]) {
      const { owned, added } = await attach(viewer, tagId, ids);
      return { addedCount: added, skippedCount: owned - added };
    },

    async batchRemove(viewer: Viewer, tagId: string, ids: string[]) {
      await require(viewer, tagId);
      // The tag is the caller's, so every upload it is on is the caller's too.
      return { removedCount: await tags.detach(tagId, ids) };
    },
  };
}
