import { z } from 'zod';
import { BIDI_CONTROLS, CONTROL_CHARACTERS, MAX_BATCH_IDS, TAG_NAME_MAX } from './constants.ts';
import { Id } from './text.ts';
import { ListUploadsQuery } from './uploads.ts';

/** A tag's name as sent: trimmed, then 1-50 characters, no control or bidirectional characters. */
export const TagName = z
  .string()
  .refine(
    (s) => !CONTROL_CHARACTERS.test(s) && !BIDI_CONTROLS.test(s),
    'must not contain control characters',
  )
  .trim()
  .min(1, 'Tag name is required')
  // Characters as people count them (code points): an emoji is one.
  .refine(
    (s) => [...s].length <= TAG_NAME_MAX,
    `Tag name must be at most ${TAG_NAME_MAX} characters`,
  );

/** A tag with the number of the owner's uploads that carry it. */
export const TagSummary = z
  .object({ id: z.string(), name: z.string(), uploadCount: z.number().int().nonnegative() })
  .meta({ id: 'TagSummary' });
export type TagSummary = z.infer<typeof TagSummary>;

export const ListTagsResponse = z.object({ tags: z.array(TagSummary) });
export type ListTagsResponse = z.infer<typeof ListTagsResponse>;

export const TagRequest = z.object({ name: TagName });
export type TagRequest = z.infer<typeof TagRequest>;
export const TagResponse = z.object({ tag: TagSummary });
export type TagResponse = z.infer<typeof TagResponse>;

export const TagIdParams = z.object({ tagId: Id });
export const TagUploadParams = z.object({ tagId: Id, uploadId: Id });

/** The upload list's query without `tag` (the tag is in the path). */
export const TagUploadsQuery = ListUploadsQuery.omit({ tag: true });

/** 1-1000 ids, none twice. */
export const DistinctIds = z
  .array(Id)
  .min(1)
  .max(MAX_BATCH_IDS)
  .refine((ids) => new Set(ids).size === ids.length, 'must not list an id twice');

export const BatchTagRequest = z.object({ uploadIds: DistinctIds, tagId: Id });
export type BatchTagRequest = z.infer<typeof BatchTagRequest>;
export const BatchAddTagResponse = z.object({
  /** Uploads that got the tag now. */
  addedCount: z.number().int(),
  /** The caller's uploads that had it already. */
  skippedCount: z.number().int(),
  /** The caller's uploads left without it: they carry MAX_TAGS_PER_UPLOAD tags already. */
  fullCount: z.number().int(),
});
export type BatchAddTagResponse = z.infer<typeof BatchAddTagResponse>;
export const BatchRemoveTagResponse = z.object({ removedCount: z.number().int() });
export type BatchRemoveTagResponse = z.infer<typeof BatchRemoveTagResponse>;
