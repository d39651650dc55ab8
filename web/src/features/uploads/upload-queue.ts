// The upload dialog's queue, as plain data: which dropped files are kept and how they start out.
// Files go as the browser gives them: the server resolves a blank or generic type from the name.

/** Files the operating system leaves in folders; nobody means to upload them. */
export const IGNORED_FILE_NAMES: readonly string[] = ['.DS_Store', 'Thumbs.db'];

export type QueueItemStatus = 'pending' | 'uploading' | 'success' | 'error';

export type QueueItem = {
  id: string;
  file: File;
  status: QueueItemStatus;
  /** 0-100. */
  progress: number;
  /** The link that opens the finished file: signed for a private one. */
  url?: string;
  /** Until when a signed link works. */
  urlExpiresAt?: string;
  error?: string;
  /** The chunked session of an earlier attempt, resumed when the file is tried again. */
  chunkedUploadId?: string;
  /** The link options that session was opened with (its upload will have those). */
  chunkedLink?: string;
};

let nextId = 0;

/** Queue items for dropped files, system clutter left out. */
export function toQueueItems(files: readonly File[]): QueueItem[] {
  return files
    .filter((file) => !IGNORED_FILE_NAMES.includes(file.name))
    .map((file) => ({ id: `q${++nextId}`, file, status: 'pending' as const, progress: 0 }));
}
