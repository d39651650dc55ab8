import { z } from 'zod';

/**
 * The ShareX custom uploader (.sxcu) Upshot hands out: ShareX posts the file as multipart in
 * `file` with the user's `X-API-Token`, and reads the link, thumbnail and deletion link from
 * the JSON answer.
 */
export const ShareXConfig = z
  .object({
    Version: z.string(),
    Name: z.string(),
    DestinationType: z.string(),
    RequestMethod: z.literal('POST'),
    RequestURL: z.string(),
    Headers: z.object({ 'X-API-Token': z.string() }),
    Body: z.literal('MultipartFormData'),
    FileFormName: z.literal('file'),
    URL: z.string(),
    ThumbnailURL: z.string(),
    DeletionURL: z.string(),
    ErrorMessage: z.string(),
  })
  .meta({ id: 'ShareXConfig' });
export type ShareXConfig = z.infer<typeof ShareXConfig>;
