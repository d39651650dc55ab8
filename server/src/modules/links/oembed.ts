/**
 * GET /api/oembed: oEmbed 1.0 for a link of this server, its preview page or its file. Only an
 * upload anyone may open as it is answers (public, no password, not expired or used up); any
 * other, or a link that does not exist, is not found, so nothing tells a private link from a
 * missing one. A picture is a `photo`, a video a `video` (the browser's player on the file), the
 * rest a `link`; so is a view-limited upload (a consumer's fetch would spend a view).
 */
import type { OEmbedResponse } from '@upshot/contract';
import type { Clock } from '../../lib/clock.ts';
import { escapeHtml } from '../../lib/format.ts';
import { isDescribable, isExpired, isUsedUp } from './policy.ts';
import { previewOf } from './preview-kinds.ts';
import type { PreviewRow } from './repository.ts';

/** Its answer, not found, or the url is not one of this server's links (400, naming it). */
export type OEmbedAnswer =
  | { kind: 'found'; body: OEmbedResponse }
  | { kind: 'not-found' }
  | { kind: 'bad-url'; message: string };

/** The largest size within the bounds asked, keeping the shape (never larger than it is). */
function fit(width: number, height: number, maxWidth = Infinity, maxHeight = Infinity) {
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return {
    width: Math.max(1, Math.floor(width * scale)),
    height: Math.max(1, Math.floor(height * scale)),
  };
}

/** A path segment decoded, or null when its escapes are not UTF-8 (`%zz`, `%E0%A4`). */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

export function createOEmbed(deps: {
  /** The app's address: the provider. */
  publicUrl: string;
  /** Where links are served (CONTENT_URL, else PUBLIC_URL). */
  contentUrl: string;
  clock: Clock;
  findPreview: (slug: string) => Promise<PreviewRow | undefined>;
  isSlug: (slug: string) => boolean;
  /** The uploader's title and site name (the provider), and the thumbnail anyone may fetch. */
  describe: (
    row: PreviewRow,
  ) => Promise<{ embed: { title: string; siteName: string }; thumbnailUrl: string | null }>;
}) {
  // Links are CONTENT_URL's; one handed out before it was set (PUBLIC_URL's) still redirects.
  const bases = [deps.contentUrl, deps.publicUrl].map((u) => {
    const url = new URL(u);
    return { origin: url.origin, path: url.pathname.replace(/\/+$/, '') };
  });

  /** The slug of a page or file link on this server, or null. */
  function slugOf(url: URL): string | null {
    const base = bases.find(
      (b) => url.origin === b.origin && url.pathname.startsWith(`${b.path}/`),
    );
    if (!base) return null;
    const match = /^\/(?:v\/)?([^/]+)$/.exec(url.pathname.slice(base.path.length));
    const slug = match ? decodeSegment(match[1]!) : null;
    return slug !== null && deps.isSlug(slug) ? slug : null;
  }

  return async function oembed(query: {
    url: string;
    maxwidth?: number;
    maxheight?: number;
  }): Promise<OEmbedAnswer> {
    const slug = URL.canParse(query.url) ? slugOf(new URL(query.url)) : null;
    if (slug === null) {
      return {
        kind: 'bad-url',
        message: `url must be a link of this server (${deps.contentUrl}/...)`,
      };
    }
    const row = await deps.findPreview(slug);
    if (!row || !isDescribable(row) || isExpired(row, deps.clock.now()) || isUsedUp(row)) {
      return { kind: 'not-found' };
    }
    const { embed, thumbnailUrl } = await deps.describe(row);
    const { title, siteName } = embed;
    const fileUrl = `${deps.contentUrl}/${encodeURIComponent(slug)}`;
    const common = {
      version: '1.0' as const,
      title,
      provider_name: siteName,
      provider_url: `${deps.publicUrl}/`,
    };
    // A view-limited file is a link: a consumer's fetch of the file would spend a view.
    const kind =
      row.max_views === null ? previewOf(row.mime_type, row.original_filename).kind : 'other';
    const size =
      row.width !== null && row.height !== null
        ? fit(Number(row.width), Number(row.height), query.maxwidth, query.maxheight)
        : null;
    if (kind === 'image' && size) {
      return { kind: 'found', body: { ...common, type: 'photo', url: fileUrl, ...size } };
    }
    if (kind === 'video' && size) {
      const html = `<video src="${escapeHtml(fileUrl)}" width="${size.width}" height="${size.height}" controls preload="metadata"></video>`;
      const thumbnail = thumbnailUrl
        ? { thumbnail_url: thumbnailUrl, ...thumbnailSize(Number(row.width), Number(row.height)) }
        : {};
      return { kind: 'found', body: { ...common, type: 'video', html, ...size, ...thumbnail } };
    }
    return { kind: 'found', body: { ...common, type: 'link' } };
  };
}

/** A thumbnail is at most 400 px on its longer side, never larger than its picture. */
function thumbnailSize(width: number, height: number) {
  const { width: w, height: h } = fit(width, height, 400, 400);
  return { thumbnail_width: w, thumbnail_height: h };
}
