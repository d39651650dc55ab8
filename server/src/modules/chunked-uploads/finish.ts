/**
 * The end of a chunked upload's completion, once its claim is held and every part is stored
 * (service.ts decides that): the parts joined into one object, its bytes taken in (the type
 * sniffed and a picture's metadata stripped: uploads/intake.ts), the upload recorded, and the
 * bytes no upload points at removed.
 */
import type { ChunkedUploadRow, UploadRow } from '../../db/schema.ts';
import { NotFoundError, PayloadTooLargeError, ValidationError } from '../../errors.ts';
import type { Viewer } from '../../lib/caller.ts';
import type { Clock } from '../../lib/clock.ts';
import { StorageSizeError, type Storage } from '../../storage/storage.ts';
import {
  intakeStored,
  linkColumns,
  type LinkColumns,
  type StrippedCopy,
  type UploadsService,
} from '../uploads/index.ts';
import type { ChunkedUploadsRepository } from './repository.ts';

/** The link a session asked for, as its upload gets it (an expiry duration counts from `now`). */
export function linkColumnsOf(session: ChunkedUploadRow, now: Date): LinkColumns {
  return linkColumns(
    {
      isPublic: session.is_public === 1,
      // Sessions opened before link controls existed asked for none.
      expires: session.link_expires ?? 'never',
      maxViews: session.max_views === null ? null : Number(session.max_views),
      passwordHash: session.password_hash,
    },
    now,
  );
}

/** The answer of a completion whose upload was made before (by itself or another). */
export function lostAnswer(row: UploadRow) {
  return { row, created: false };
}

export async function finishCompletion(
  deps: {
    sessions: ChunkedUploadsRepository;
    uploads: UploadsService;
    storage: Storage;
    clock: Clock;
    onError: (err: unknown, context: Record<string, unknown>) => void;
  },
  owner: Viewer,
  session: ChunkedUploadRow,
  claim: string,
): Promise<{ row: UploadRow; created: boolean }> {
  const { sessions, uploads, storage, clock } = deps;
  const uploadId = session.id;
  try {
    await storage.completeMultipart(
      session.multipart_id,
      session.storage_key,
      await sessions.storedParts(uploadId),
      Number(session.total_size),
    );
  } catch (err) {
    if (err instanceof StorageSizeError) {
      // The parts do not add up and nothing was joined: a chunk sent again can mend it.
      await sessions.reopen(uploadId, claim);
      throw new ValidationError(err.message);
    }
    const storeWorks = () =>
      storage.check().then(
        () => true,
        () => false,
      );
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && (await storeWorks())) {
      // Neither the parts nor a joined object, in a store in working order (not a volume
      // gone for a moment): the store dropped them (an S3 bucket's rule that aborts old
      // multipart uploads), and nothing can complete the session.
      if (await sessions.deleteClaimed(uploadId, claim)) {
        throw new NotFoundError('Upload session expired; start the upload again');
      }
      // This claim was taken over meanwhile: the completion that took it may have made it.
      const now = await sessions.find(uploadId);
      if (now?.status === 'completed' && now.upload_id) {
        return lostAnswer(await uploads.get(owner, now.upload_id));
      }
      throw err;
    }
    // The store may have joined the parts even so (its answer lost on the way): no chunk
    // is taken from here on, and the next completion joins them or finds the object.
    await sessions.releaseCompletion(uploadId, claim).catch(() => undefined);
    throw err;
  }
  // Bytes no upload points at (a failure is logged, and the orphan sweep takes them): the
  // joined ones once a stripped copy stands in for them, or a copy made again by a repeated
  // completion whose upload has its own.
  const remove = (key: string, action: string) =>
    storage.delete(key).catch((err: unknown) => deps.onError(err, { uploadId, action }));
  let stripped: StrippedCopy | null = null;
  let result: { row: UploadRow; created: boolean };
  try {
    // Chunks come in any order, may be sent again and land on any instance: the type is
    // sniffed once, from the joined bytes, and a picture loses its metadata here, once,
    // as a copy beside them (the parts may not be changed in place).
    const intake = await intakeStored(storage, session.storage_key, {
      claimed: session.mime_type,
      size: Number(session.total_size),
      strip: await uploads.stripsMetadata(owner),
    });
    stripped = intake.stripped;
    result = await uploads.record({
      id: session.id,
      owner,
      filename: session.filename,
      mimeType: intake.mimeType,
      size: stripped?.size ?? Number(session.total_size),
      sha256: stripped?.sha256 ?? null,
      link: linkColumnsOf(session, clock.now()),
      storageKey: stripped?.storageKey ?? session.storage_key,
    });
  } catch (err) {
    if (err instanceof PayloadTooLargeError) {
      // Refused for the quota: the session is over, and none of its bytes stay (record()
      // removed what it was given; when that was a stripped copy, the joined bytes go here).
      await sessions.delete(uploadId);
      if (stripped) await remove(session.storage_key, 'remove joined bytes');
    } else {
      // The joined bytes stay, and the session takes no chunk (there are no parts left to
      // write to): the next completion takes over at once and records them.
      await sessions.releaseCompletion(uploadId, claim).catch(() => undefined);
    }
    throw err;
  }
  if (stripped && result.row.storage_key !== stripped.storageKey) {
    await remove(stripped.storageKey, 'remove a copy made again');
  }
  // The upload exists and is charged: that is the answer, even if marking the session
  // fails (a retry or a takeover finds the upload under the session's id).
  const marked = await sessions.markCompleted(uploadId, claim, result.row.id).then(
    () => true,
    (err: unknown) => deps.onError(err, { uploadId, action: 'mark completed' }),
  );
  // When the upload is a stripped copy, its joined bytes go only once the session is
  // marked, for a completion repeated before then joins them again.
  if (marked && result.row.storage_key !== session.storage_key) {
    await remove(session.storage_key, 'remove joined bytes');
  }
  return result;
}
