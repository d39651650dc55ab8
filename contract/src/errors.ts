import { z } from 'zod';
import { ERROR_CODES } from './constants.ts';

/** Every error response has this shape: a stable code and a sentence for people. */
export const ErrorBody = z
  .object({ error: z.enum([...ERROR_CODES, 'http_error']), message: z.string() })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;
