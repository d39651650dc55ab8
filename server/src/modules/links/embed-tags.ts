/**
 * What a preview page tells chat apps and crawlers (Discord, Slack, ...): OpenGraph and Twitter
 * Card tags, its colour, and where its oEmbed answer is. Only an upload anyone may open says
 * anything of itself: a private or password-protected one (a crawler never unlocks) gets none
 * of these tags, and a view-limited one names no picture or video (a crawler's fetch would
 * spend a view).
 */
import { fillEmbedTitle } from '@upshot/contract';
import { escapeHtml, formatBytes, formatUtcDate, formatUtcDateTime } from '../../lib/format.ts';
import { isDescribable } from './policy.ts';
import type { EmbedSettings, EmbedSettingsOf, PreviewPage } from './preview.ts';
import type { PreviewRow } from './repository.ts';

/** The uploader's preferences applied to an upload: its title template filled in. */
export function embedOf(
  row: PreviewRow,
  preferences: Awaited<ReturnType<EmbedSettingsOf>>,
): EmbedSettings {
  const title = fillEmbedTitle(preferences.titleTemplate, {
    filename: row.original_filename,
    size: formatBytes(Number(row.size)),
    date: formatUtcDate(row.created_at),
    username: row.username,
  });
  // A template of placeholders that fill in empty says at least the file's name.
  return {
    title: title.trim() || row.original_filename,
    siteName: preferences.siteName,
    color: preferences.color,
  };
}

export type EmbedInput = {
  page: PreviewPage;
  /** The page's own address, and the file's. */
  pageUrl: string;
  rawUrl: string;
  /** GET /api/oembed for this page. */
  oembedUrl: string;
};

const meta = (kind: 'property' | 'name', key: string, value: string | number) =>
  `<meta ${kind}="${key}" content="${escapeHtml(String(value))}">`;
const og = (key: string, value: string | number) => meta('property', `og:${key}`, value);
const twitter = (key: string, value: string | number) => meta('name', `twitter:${key}`, value);

/** The tags, one a line, escaped; only the colour for an upload that may not be described. */
export function embedTagsHtml(input: EmbedInput): string {
  const { page, pageUrl, rawUrl } = input;
  const settings = page.embed;
  const tags = [meta('name', 'theme-color', settings.color)];
  if (!isDescribable(page.row)) return tags.join('\n');
  const { row } = page;
  const description = `${formatBytes(Number(row.size))} · ${formatUtcDateTime(row.created_at)}`;
  const media = row.max_views === null; // a crawler's fetch of a view-limited file is a view
  const size = row.width !== null && row.height !== null ? { w: row.width, h: row.height } : null;
  const kind = page.preview.kind;
  tags.push(
    og('site_name', settings.siteName),
    og('title', settings.title),
    og('description', description),
    og('url', pageUrl),
    og('type', media && kind === 'video' ? 'video.other' : 'website'),
  );
  if (media && kind === 'image') {
    tags.push(
      og('image', rawUrl),
      og('image:type', row.mime_type),
      og('image:alt', settings.title),
    );
    if (size) tags.push(og('image:width', size.w), og('image:height', size.h));
    tags.push(twitter('card', 'summary_large_image'), twitter('image', rawUrl));
  } else if (media && kind === 'video') {
    tags.push(og('video', rawUrl), og('video:url', rawUrl));
    if (rawUrl.startsWith('https:')) tags.push(og('video:secure_url', rawUrl));
    tags.push(og('video:type', row.mime_type));
    if (size) tags.push(og('video:width', size.w), og('video:height', size.h));
    if (page.thumbnailUrl) tags.push(og('image', page.thumbnailUrl));
    tags.push(twitter('card', 'player'), twitter('player', rawUrl));
    if (size) tags.push(twitter('player:width', size.w), twitter('player:height', size.h));
    tags.push(
      twitter('player:stream', rawUrl),
      twitter('player:stream:content_type', row.mime_type),
    );
    if (page.thumbnailUrl) tags.push(twitter('image', page.thumbnailUrl));
  } else if (media && kind === 'audio') {
    tags.push(og('audio', rawUrl), og('audio:type', row.mime_type), twitter('card', 'summary'));
  } else {
    tags.push(twitter('card', 'summary'));
  }
  tags.push(
    twitter('title', settings.title),
    twitter('description', description),
    `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(input.oembedUrl)}" title="${escapeHtml(settings.title)}">`,
  );
  return tags.join('\n');
}
