import { z } from 'zod';
import { ROLES } from './constants.ts';
import { text } from './text.ts';

export const RoleSchema = z.enum(ROLES);

/**
 * An email address, checked loosely (something@somewhere): single-host addresses such as
 * admin@localhost are legitimate on a self-hosted instance.
 */
export const Email = text(254)
  .trim()
  .regex(/^[^\s@]+@[^\s@]+$/, { message: 'Enter a valid email address' });

/** The user as every endpoint returns it: never a hash, digest or token. */
export const User = z
  .object({
    id: z.string(),
    username: z.string(),
    email: z.string(),
    role: RoleSchema,
    isActive: z.boolean(),
    diskUsed: z.number().int().nonnegative(),
    diskQuota: z.number().int().nonnegative(),
    createdAt: z.string(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof User>;
