import type { AdminUser, User, UserWithToken } from '@upshot/contract';
import type { UserRow } from '../../db/schema.ts';
import type { AuthUser } from '../../lib/caller.ts';

export function toUserResponse(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    role: row.role,
    isActive: row.is_active === 1,
    diskUsed: Number(row.disk_used),
    diskQuota: Number(row.disk_quota),
    createdAt: row.created_at,
    mustChangePassword: row.must_change_password === 1,
  };
}

/** The user as the Admin screen lists them. */
export function toAdminUser(row: UserRow): AdminUser {
  return {
    ...toUserResponse(row),
    uploadCount: Number(row.upload_count),
    lastSeenAt: row.last_seen_at,
  };
}

/** The user as themself or an admin reads them: with the personal API token in clear. */
export function toUserWithToken(row: UserRow, apiToken: string): UserWithToken {
  return { ...toUserResponse(row), apiToken };
}

/** The narrow user a request carries: never the password hash or a token. */
export function toAuthUser(row: UserRow): AuthUser {
  return {
    id: row.id,
    role: row.role,
    username: row.username,
    email: row.email,
    isActive: row.is_active === 1,
    mustChangePassword: row.must_change_password === 1,
  };
}
