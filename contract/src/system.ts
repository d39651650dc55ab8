import { z } from 'zod';

/** What the web app needs to know about this server, instead of guessing it. */
export const ServerConfig = z
  .object({
    /** The app's address (PUBLIC_URL), without a trailing slash. */
    publicUrl: z.string(),
    /**
     * Where links to user content start (files, thumbnails, preview pages): CONTENT_URL when
     * set, else PUBLIC_URL; without a trailing slash.
     */
    contentUrl: z.string(),
    /** Size of every chunk but the last in the chunked protocol. */
    chunkSize: z.number().int().positive(),
    /** Files up to this size go in one request (POST /api/upload). */
    maxSimpleUploadBytes: z.number().int().positive(),
    /** Largest file the server takes at all. */
    maxUploadBytes: z.number().int().positive(),
    version: z.string(),
  })
  .meta({ id: 'ServerConfig' });
export type ServerConfig = z.infer<typeof ServerConfig>;

/** GET /api/health: the process answers (nothing else is checked). */
export const Health = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });
export type Health = z.infer<typeof Health>;

/** GET /api/health/ready: every part this instance needs answered in time. */
export const Readiness = z
  .object({
    status: z.literal('ok'),
    database: z.literal('ok'),
    storage: z.literal('ok'),
  })
  .meta({ id: 'Readiness' });
export type Readiness = z.infer<typeof Readiness>;
