/**
 * Administration: creating users with a temporary password (and an invitation), changing,
 * deleting and resetting them. Every action is written to the audit log.
 */
import crypto from 'node:crypto';
import { INVITE_TTL_MS, type CreateUserRequest, type UpdateUserRequest } from '@upshot/contract';
import type { UserRow } from '../../db/schema.ts';
import { NotFoundError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256Hex } from '../../lib/crypto.ts';
import type { AuthService } from '../auth/index.ts';
import { temporaryPassword } from '../auth/index.ts';
import type { ChunkedUploadsService } from '../chunked-uploads/index.ts';
import type { UploadsService } from '../uploads/index.ts';
import type { AuthUser, UserChanges, UsersService } from '../users/index.ts';
import type { AdminRepository } from './repository.ts';

export type AdminService = ReturnType<typeof createAdminService>;

type Actor = Pick<AuthUser, 'id' | 'username' | 'role'>;

export function createAdminService(deps: {
  admin: AdminRepository;
  users: UsersService;
  auth: AuthService;
  uploads: UploadsService;
  chunked: ChunkedUploadsService;
  clock: Clock;
  publicUrl: string;
}) {
  const { admin, users, auth, uploads, chunked, clock } = deps;

  /** Records an administrator's action: never a password, token or code. */
  async function audit(
    actor: Actor,
    action: string,
    target: Pick<UserRow, 'id' | 'username'>,
    details: Record<string, unknown> = {},
  ) {
    await admin.audit({
      id: crypto.randomUUID(),
      actor_id: actor.id,
      actor_username: actor.username,
      action,
      target_type: 'user',
      target_id: target.id,
      target_label: target.username,
      details: JSON.stringify(details),
      created_at: clock.now().toISOString(),
    });
  }

  /** A single-use invitation for the user, valid INVITE_TTL_MS; only its digest is stored. */
  async function invite(userId: string): Promise<{ code: string; url: string; expiresAt: string }> {
    const code = randomToken(24);
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + INVITE_TTL_MS).toISOString();
    await admin.insertInvite({
      id: crypto.randomUUID(),
      user_id: userId,
      code_digest: sha256Hex(code),
      created_at: now.toISOString(),
      expires_at: expiresAt,
    });
    return { code, url: `${deps.publicUrl}/register?invite=${code}`, expiresAt };
  }

  return {
    async createUser(actor: Actor, input: Required<CreateUserRequest>) {
      const tempPassword = temporaryPassword();
      const user = await users.create({
        email: input.email,
        username: input.username,
        role: input.role,
        password: tempPassword,
        mustChangePassword: true,
      });
      const invitation = input.sendInvite ? await invite(user.id) : null;
      await audit(actor, 'user.created', user, { role: user.role, invited: input.sendInvite });
      return { user, tempPassword, invitation };
    },

    async updateUser(actor: Actor, id: string, body: UpdateUserRequest): Promise<UserRow> {
      const changes: UserChanges = {
        ...(body.isActive !== undefined ? { is_active: body.isActive ? 1 : 0 } : {}),
        ...(body.role !== undefined ? { role: body.role } : {}),
        ...(body.diskQuota !== undefined ? { disk_quota: body.diskQuota } : {}),
        ...(body.username !== undefined ? { username: body.username } : {}),
      };
      const { before, after } = await users.update(id, changes);
      // The API token is refused as soon as the row says inactive; the sessions go too.
      if (before.is_active === 1 && after.is_active === 0) await auth.revokeSessions(id);
      const changed = Object.fromEntries(
        Object.entries(body).filter(([key]) => {
          const column = {
            isActive: 'is_active',
            role: 'role',
            diskQuota: 'disk_quota',
            username: 'username',
          }[key] as keyof UserRow;
          return String(before[column]) !== String(after[column]);
        }),
      );
      if (Object.keys(changed).length > 0) await audit(actor, 'user.updated', after, changed);
      return after;
    },

    /** Deletes the user and their rows, then their bytes (the orphan sweep catches a crash between). */
    async deleteUser(actor: Actor, id: string): Promise<void> {
      const keys = await uploads.storageKeysOf(id);
      const unfinished = await chunked.unfinishedOf(id);
      const row = await users.delete(actor, id);
      await audit(actor, 'user.deleted', row, { email: row.email });
      await uploads.removeBytes(keys);
      await chunked.abortAll(unfinished);
    },

    async resetPassword(actor: Actor, id: string): Promise<string> {
      const row = await users.get(id);
      const tempPassword = await auth.setTemporaryPassword(id);
      if (tempPassword === null) throw new NotFoundError('User not found');
      await audit(actor, 'user.password_reset', row);
      return tempPassword;
    },
  };
}
