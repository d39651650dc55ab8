import { z } from 'zod';
import {
  BIDI_CONTROLS,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  MIN_PAGE_SIZE,
  MIN_PASSWORD_LENGTH,
  ROLES,
  USERNAME_MAX,
} from './constants.ts';
import { Id, mixesScripts, NO_BIDI, text, WholeNumber } from './text.ts';

export const RoleSchema = z.enum(ROLES);

/**
 * An email address, checked loosely (something@somewhere): single-host addresses such as
 * admin@localhost are legitimate on a self-hosted instance.
 */
export const Email = text(254)
  .trim()
  // No display name, list or group syntax (<>,;:"()[]\): mail goes to exactly this address.
  .regex(/^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+$/, {
    message: 'Enter a valid email address',
  });

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
    /** A temporary password was set: the user must choose a new one before anything else. */
    mustChangePassword: z.boolean(),
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

/**
 * A username: 1-50 characters once trimmed, of any script but one at a time (mixesScripts),
 * with digits, punctuation and spaces; no control or bidirectional control characters.
 */
export const Username = text(USERNAME_MAX * 4)
  .refine((s) => !BIDI_CONTROLS.test(s), NO_BIDI)
  .trim()
  .min(1, { message: 'Username is required' })
  .refine((s) => [...s].length <= USERNAME_MAX, {
    message: `Username must be at most ${USERNAME_MAX} characters`,
  })
  .refine((s) => !mixesScripts(s), {
    message: 'must not mix letters of different scripts (such as Latin and Cyrillic)',
  });

/** A user as the Admin screen lists them. */
export const AdminUser = User.extend({
  uploadCount: z.number().int().nonnegative(),
  lastSeenAt: z.string().nullable(),
}).meta({ id: 'AdminUser' });
export type AdminUser = z.infer<typeof AdminUser>;

export const ListUsersQuery = z.object({
  /** A case-insensitive part of the username or email. */
  search: text(100).trim().optional(),
  role: z.union([RoleSchema, z.literal('')]).optional(),
  status: z.enum(['active', 'inactive', '']).optional(),
  page: WholeNumber.pipe(z.number().int().min(1).max(1_000_000)).default(1),
  limit: WholeNumber.pipe(z.number().int().min(MIN_PAGE_SIZE).max(MAX_PAGE_SIZE)).default(
    DEFAULT_PAGE_SIZE,
  ),
});
export type ListUsersQuery = z.input<typeof ListUsersQuery>;

export const ListUsersResponse = z.object({
  users: z.array(AdminUser),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type ListUsersResponse = z.infer<typeof ListUsersResponse>;

/** Only these fields: anything else (id, diskUsed, isActive...) is refused, never applied. */
export const CreateUserRequest = z
  .object({
    email: Email,
    username: Username,
    role: RoleSchema.default('user'),
    sendInvite: z.boolean().default(false),
  })
  .strict();
export type CreateUserRequest = z.input<typeof CreateUserRequest>;

export const CreateUserResponse = z.object({
  user: AdminUser,
  /** Shown once: the user signs in with it and must then choose their own password. */
  tempPassword: z.string(),
  /** Single-use, valid 7 days; null when no invitation was asked for. */
  inviteCode: z.string().nullable(),
  /** PUBLIC_URL/register?invite=CODE. */
  inviteUrl: z.string().nullable(),
  /** Whether the invitation email went out (false without SMTP configured). */
  emailSent: z.boolean(),
});
export type CreateUserResponse = z.infer<typeof CreateUserResponse>;

export const UpdateUserRequest = z
  .object({
    isActive: z.boolean(),
    role: RoleSchema,
    diskQuota: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    username: Username,
  })
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: 'Nothing to change' });
export type UpdateUserRequest = z.infer<typeof UpdateUserRequest>;

export const ResetPasswordResponse = z.object({ tempPassword: z.string() });
export type ResetPasswordResponse = z.infer<typeof ResetPasswordResponse>;
