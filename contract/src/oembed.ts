import { z } from 'zod';
import { text, WholeNumber } from './text.ts';

/** GET /api/oembed: a link of this server (its preview page or the file), as oEmbed 1.0 asks. */
export const OEmbedQuery = z.object({
  url: text(2048).regex(/^https?:\/\/[^\s/?#]+\S*$/i, 'must be an http(s) URL'),
  /** json, or xml, which this server does not answer (501, as the oEmbed spec says). */
  format: z.enum(['json', 'xml']).default('json'),
  maxwidth: WholeNumber.pipe(z.number().int().min(1)).optional(),
  maxheight: WholeNumber.pipe(z.number().int().min(1)).optional(),
});
export type OEmbedQuery = z.infer<typeof OEmbedQuery>;

/** An oEmbed 1.0 answer: a photo, a video (its player as `html`) or a link. */
export const OEmbedResponse = z
  .object({
    version: z.literal('1.0'),
    type: z.enum(['photo', 'video', 'link']),
    title: z.string(),
    provider_name: z.string(),
    provider_url: z.string(),
    author_name: z.string().optional(),
    /** photo: the picture itself. */
    url: z.string().optional(),
    /** video: the browser's player on the file. */
    html: z.string().optional(),
    width: z.number().int().optional(),
    height: z.number().int().optional(),
    thumbnail_url: z.string().optional(),
    thumbnail_width: z.number().int().optional(),
    thumbnail_height: z.number().int().optional(),
  })
  .meta({ id: 'OEmbed' });
export type OEmbedResponse = z.infer<typeof OEmbedResponse>;
