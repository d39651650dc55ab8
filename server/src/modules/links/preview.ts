/**
 * What an upload's preview page (`/v/{slug}`) shows: the upload behind the slug, through the
 * raw link's gate (opening the page spends no view), how it is shown, and for text the first
 * PREVIEW_TEXT_BYTES decoded. The text of a view-limited upload is never put in the page: the
 * page's script fetches it from the raw link, which spends a view as any download does. A text
 * put in the page is a read of the file: an administrator's of another user's private one is
 * recorded as the raw link records it.
 */
import { buffer } from 'node:stream/consumers';
import { PREVIEW_TEXT_BYTES } from '@upshot/contract';
import type { Actor } from '../../lib/caller.ts';
import type { Storage } from '../../storage/storage.ts';
import type { createGate, GateRequest, Refusal } from './gate.ts';
import { previewOf, type Preview } from './preview-kinds.ts';
import type { PreviewRow } from './repository.ts';

/** A text whose first bytes hold a NUL is binary, whatever its type says. */
const BINARY_SNIFF_BYTES = 8192;

/** An uploader's embed preferences: the title as a template, the site name, the colour. */
export type EmbedSettingsOf = (
  userId: string,
) => Promise<{ titleTemplate: string; siteName: string; color: string }>;

/** How an uploader's links present themselves (their preferences). */
export type EmbedSettings = {
  /** The title, placeholders filled in (embedTitle). */
  title: string;
  siteName: string;
  /** #rrggbb */
  color: string;
};

export type PreviewPage = {
  row: PreviewRow;
  preview: Preview;
  /** The first PREVIEW_TEXT_BYTES of a text, decoded; null when there is none to put in the page. */
  text: string | null;
  /** The text goes on past what the page holds. */
  truncated: boolean;
  /** The page's script fetches the text from the raw link (a view-limited upload). */
  fetchText: boolean;
  /** The caller is a visitor (not the owner, an administrator or a signed link). */
  visitor: boolean;
  /** How the uploader's links present themselves (its title filled in). */
  embed: EmbedSettings;
  /** The thumbnail anyone may fetch (a video's picture), if it has one. */
  thumbnailUrl: string | null;
};

export type PreviewAnswer = { kind: 'not-found' } | Refusal | { kind: 'page'; page: PreviewPage };

export function createPreviews(deps: {
  findPreview: (slug: string) => Promise<PreviewRow | undefined>;
  gate: ReturnType<typeof createGate>['gate'];
  storage: Pick<Storage, 'get'>;
  isSlug: (slug: string) => boolean;
  /** The uploader's embed settings for this upload, and its thumbnail anyone may fetch. */
  describe: (row: PreviewRow) => Promise<{ embed: EmbedSettings; thumbnailUrl: string | null }>;
  /** The page is about to hold the file's text: the raw link's audit of a read (service.ts). */
  onRead: (viewer: Actor | null, row: PreviewRow) => Promise<void>;
}) {
  /** The first bytes of a text upload as a string (a character cut at the end is left out). */
  async function readText(row: PreviewRow): Promise<{ text: string; binary: boolean } | null> {
    const size = Number(row.size);
    if (size === 0) return { text: '', binary: false };
    const length = Math.min(size, PREVIEW_TEXT_BYTES);
    let bytes: Buffer;
    try {
      // The store's streaming read, never its synchronous one for small bodies: 512 KiB of it
      // for every visitor would hold every other request up.
      bytes = await buffer(await deps.storage.get(row.storage_key, { start: 0, end: length - 1 }));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { text: '', binary: true };
    // stream: a multi-byte character cut by the limit waits for bytes that never come.
    const text = new TextDecoder('utf-8').decode(bytes, { stream: length < size });
    return { text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, binary: false };
  }

  return {
    /** GET or HEAD /v/{slug}: the page's content, or why the gate turned the caller away. */
    async preview(slug: string, req: GateRequest & { head: boolean }): Promise<PreviewAnswer> {
      if (!deps.isSlug(slug)) return { kind: 'not-found' };
      const row = await deps.findPreview(slug);
      if (!row) return { kind: 'not-found' };
      const pass = await deps.gate(row, req, 'file');
      if (pass.kind !== 'pass') return pass;
      let preview = previewOf(row.mime_type, row.original_filename);
      const page: PreviewPage = {
        row,
        preview,
        text: null,
        truncated: false,
        fetchText: false,
        visitor: pass.visitor,
        ...(await deps.describe(row)),
      };
      if (preview.kind !== 'text' && preview.kind !== 'markdown') return { kind: 'page', page };
      page.truncated = Number(row.size) > PREVIEW_TEXT_BYTES;
      // A view-limited text is read by the page's script from the raw link: that is a view.
      if (row.max_views !== null || req.head) {
        page.fetchText = row.max_views !== null;
        return { kind: 'page', page };
      }
      const read = await readText(row);
      if (!read) return { kind: 'not-found' };
      if (read.binary) {
        preview = { kind: 'other', language: null };
        return { kind: 'page', page: { ...page, preview, truncated: false } };
      }
      await deps.onRead(req.viewer, row);
      page.text = read.text;
      return { kind: 'page', page };
    },
  };
}
