import { z } from 'zod';

export const ROLES = ['user', 'admin'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/** 10 GiB: the quota a new user gets unless DEFAULT_QUOTA_BYTES says otherwise. */
export const DEFAULT_QUOTA_BYTES = 10 * 1024 ** 3;

/**
 * An email address, checked loosely (something@somewhere): single-host addresses such as
 * admin@localhost are legitimate on a self-hosted instance.
 */
export const Email = z
  .string()
  .trim()
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+$/, { message: 'Enter a valid email address' });

/** The user as every endpoint returns it: never a hash, digest or token. */
export const User = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  role: Role,
  isActive: z.boolean(),
  diskUsed: z.number().int().nonnegative(),
  diskQuota: z.number().int().nonnegative(),
  createdAt: z.string(),
});
export type User = z.infer<typeof User>;
