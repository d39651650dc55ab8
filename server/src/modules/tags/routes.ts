import { API } from '@upshot/contract';
import { route } from '../../plugins/route-table.ts';
import type { UploadPresenter, UploadsService } from '../uploads/index.ts';
import { toTagResponse } from './presenter.ts';
import type { TagsService } from './service.ts';

export function tagsRoutes(deps: {
  tags: TagsService;
  uploads: UploadsService;
  present: UploadPresenter;
}) {
  const { tags, uploads, present } = deps;
  return [
    route(API.listTags, async ({ auth }) => ({
      tags: (await tags.list(auth.user)).map(toTagResponse),
    })),

    route(API.createTag, async ({ auth, body }) => ({
      tag: toTagResponse(await tags.create(auth.user, body.name)),
    })),

    route(API.renameTag, async ({ auth, params, body }) => ({
      tag: toTagResponse(await tags.rename(auth.user, params.tagId, body.name)),
    })),

    route(API.deleteTag, async ({ auth, params }) => {
      await tags.delete(auth.user, params.tagId);
      return undefined;
    }),

    route(API.tagUploads, async ({ auth, params, query }) => {
      const { rows, ...page } = await uploads.list(auth.user, { ...query, tag: params.tagId });
      return { uploads: await present.many(rows), ...page };
    }),

    route(API.addTagToUpload, async ({ auth, params }) => {
      await tags.tagUpload(auth.user, params.tagId, params.uploadId);
      return present.one(await uploads.get(auth.user, params.uploadId));
    }),

    route(API.removeTagFromUpload, async ({ auth, params }) => {
      await tags.untagUpload(auth.user, params.tagId, params.uploadId);
      return present.one(await uploads.get(auth.user, params.uploadId));
    }),

    route(API.batchAddTag, async ({ auth, body }) =>
      tags.batchAdd(auth.user, body.tagId, body.uploadIds),
    ),

    route(API.batchRemoveTag, async ({ auth, body }) =>
      tags.batchRemove(auth.user, body.tagId, body.uploadIds),
    ),
  ];
}
