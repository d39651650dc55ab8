import { z } from 'zod';
import { MIN_PASSWORD_LENGTH, ROLES } from './constants.ts';
import { Id, text } from './text.ts';

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

/** A user read by themself or an admin: with the personal API token (for Settings). */
export const UserWithToken = User.extend({ apiToken: z.string() }).meta({ id: 'UserWithToken' });
export type UserWithToken = z.infer<typeof UserWithToken>;

export const UserIdParams = z.object({ id: Id });

export const ChangePasswordRequest = z
  .object({
    currentPassword: z.string().min(1, { message: 'Current password is required' }).max(1024),
    newPassword: z
      .string()
      .min(MIN_PASSWORD_LENGTH, {
        message: `Password must be at least ${MIN_PASSWORD_LENGTH} characters`,
      })
      .max(1024),
  })
  .strict();
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;

export const ApiTokenResponse = z.object({ apiToken: z.string() });
export type ApiTokenResponse = z.infer<typeof ApiTokenResponse>;
