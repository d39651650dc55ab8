/**
 * Managing users, for administrators: listing them, creating them with a temporary password
 * and, if asked, an invitation, changing, resetting and deleting them, and emailing them their
 * credentials. Every change goes to the audit log.
 */
import crypto from 'node:crypto';
import type {
  CreateUserRequest,
  Role,
  SendInviteRequest,
  UpdateUserRequest,
} from '@upshot/contract';
import type { UserRow } from '../../db/schema.ts';
import { AppError, ConflictError, ForbiddenError, NotFoundError } from '../../errors.ts';
import type { Actor } from '../../lib/caller.ts';
import { siteOf } from '../../lib/email-layout.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { temporaryPassword } from '../../lib/passwords.ts';
import type { AuditService } from '../audit/index.ts';
import type { ChunkedUploadsService } from '../chunked-uploads/index.ts';
import type { UploadsService } from '../uploads/index.ts';
import { credentialsEmail, invitationEmail } from './emails.ts';
import { canAdministerUsers } from './policy.ts';
import type { UserChanges } from './repository.ts';
import type { UsersService } from './service.ts';

export type UserManagement = ReturnType<typeof createUserManagement>;

/**
 * What managing users asks of sign-in: the auth module's service, given by app.ts (this module
 * cannot import it, since sign-in reads users).
 */
export type Credentials = {
  createInvite(userId: string): Promise<{ code: string; expiresAt: string }>;
  /** A new temporary password (every session ends); null for no such user. */
  setTemporaryPassword(userId: string): Promise<string | null>;
  revokeSessions(userId: string): Promise<void>;
};

/** Email is not configured, or the mail server refused or did not answer. */
export class EmailNotSentError extends AppError {
  constructor(configured: boolean) {
    super(
      'email_not_sent',
      503,
      configured
        ? 'The mail server did not accept the email; send the details by hand'
        : 'Email is not configured on this server (set SMTP_URL); send the details by hand',
    );
  }
}

function mustAdminister(actor: Actor): void {
  if (!canAdministerUsers(actor)) throw new ForbiddenError('Only administrators manage users');
}

export function createUserManagement(deps: {
  users: UsersService;
  credentials: Credentials;
  audit: AuditService;
  uploads: Pick<UploadsService, 'storageKeysOf' | 'releaseVanitiesOf' | 'removeBytes'>;
  chunked: Pick<ChunkedUploadsService, 'unfinishedOf' | 'abortAll'>;
  mailer: Mailer;
  publicUrl: string;
}) {
  const { users, credentials, uploads, chunked, mailer } = deps;
  const site = siteOf(deps.publicUrl);
  const inviteLink = (code: string) =>
    `${deps.publicUrl}/register?invite=${encodeURIComponent(code)}`;
  const audit = (
    actor: Actor,
    action: Parameters<AuditService['record']>[1],
    row: Pick<UserRow, 'id' | 'username'>,
    details: Record<string, unknown> = {},
  ) => deps.audit.record(actor, action, { type: 'user', id: row.id, label: row.username }, details);

  /**
   * A single-use invitation for the user, emailed to them (saying their access request was
   * approved, if it was); answers its code and link, and whether the email went out.
   */
  async function invite(
    user: Pick<UserRow, 'id' | 'email' | 'username'>,
    options: { approved?: boolean } = {},
  ) {
    const { code, expiresAt } = await credentials.createInvite(user.id);
    const url = inviteLink(code);
    const sent = await mailer.send(
      invitationEmail({
        to: user.email,
        username: user.username,
        link: url,
        expiresAt,
        approved: options.approved,
        site,
      }),
    );
    return { code, url, emailSent: sent.sent };
  }

  return {
    invite,

    /** A page of users (newest first) matching the search, role and status. */
    list(
      actor: Actor,
      query: {
        search?: string;
        role?: Role | '';
        status?: 'active' | 'inactive' | '';
        page: number;
        limit: number;
      },
    ) {
      mustAdminister(actor);
      return users.list(
        {
          search: query.search || undefined,
          role: query.role || undefined,
          active: query.status ? query.status === 'active' : undefined,
        },
        { page: query.page, limit: query.limit },
      );
    },

    async create(actor: Actor, input: Required<CreateUserRequest>) {
      mustAdminister(actor);
      const tempPassword = temporaryPassword();
      const user = await users.create({
        email: input.email,
        username: input.username,
        role: input.role,
        password: tempPassword,
        mustChangePassword: true,
      });
      const invitation = input.sendInvite ? await invite(user) : null;
      const emailSent = invitation?.emailSent ?? false;
      await audit(actor, 'user.created', user, {
        role: user.role,
        invited: input.sendInvite,
        emailSent,
      });
      return { user, tempPassword, invitation, emailSent };
    },

    /**
     * Creates a user (role user, a temporary password they never see) under a free username:
     * `base`, then `base2`, `base3`... For an approved access request, which invites them.
     */
    async createWithFreeUsername(input: { email: string; base: string }): Promise<UserRow> {
      const create = (username: string) =>
        users.create({
          email: input.email,
          username,
          role: 'user',
          password: temporaryPassword(),
          mustChangePassword: true,
        });
      for (let n = 1; n <= 50; n += 1) {
        try {
          return await create(n === 1 ? input.base : `${input.base}${n}`);
        } catch (err) {
          if (!(err instanceof ConflictError) || !err.message.includes('username')) throw err;
        }
      }
      return create(`${input.base}${crypto.randomInt(1000, 1_000_000)}`);
    },

    async update(actor: Actor, id: string, body: UpdateUserRequest): Promise<UserRow> {
      mustAdminister(actor);
      const changes: UserChanges = {
        ...(body.isActive !== undefined ? { is_active: body.isActive ? 1 : 0 } : {}),
        ...(body.role !== undefined ? { role: body.role } : {}),
        ...(body.diskQuota !== undefined ? { disk_quota: body.diskQuota } : {}),
        ...(body.username !== undefined ? { username: body.username } : {}),
      };
      const { before, after } = await users.update(id, changes);
      // The API token is refused as soon as the row says inactive; the sessions go too.
      if (before.is_active === 1 && after.is_active === 0) await credentials.revokeSessions(id);
      const changed: Record<string, { from: unknown; to: unknown }> = {};
      const compare = (key: string, from: unknown, to: unknown) => {
        if (String(from) !== String(to)) changed[key] = { from, to };
      };
      compare('isActive', before.is_active === 1, after.is_active === 1);
      compare('role', before.role, after.role);
      compare('diskQuota', Number(before.disk_quota), Number(after.disk_quota));
      compare('username', before.username, after.username);
      if (Object.keys(changed).length > 0) await audit(actor, 'user.updated', after, changed);
      return after;
    },

    /** Deletes the user and their rows, then their bytes (the orphan sweep catches a crash between). */
    async delete(actor: Actor, id: string): Promise<void> {
      mustAdminister(actor);
      const keys = await uploads.storageKeysOf(id);
      const unfinished = await chunked.unfinishedOf(id);
      await uploads.releaseVanitiesOf(id);
      const row = await users.delete(actor, id);
      await audit(actor, 'user.deleted', row, { email: row.email });
      await uploads.removeBytes(keys);
      await chunked.abortAll(unfinished);
    },

    /** A new temporary password (shown once); every session of the user ends. */
    async resetPassword(actor: Actor, id: string): Promise<string> {
      mustAdminister(actor);
      const row = await users.get(id);
      const tempPassword = await credentials.setTemporaryPassword(id);
      if (tempPassword === null) throw new NotFoundError('User not found');
      await audit(actor, 'user.password_reset', row);
      return tempPassword;
    },

    /** Emails a user their credentials (and invitation); refused (503) when it did not go out. */
    async sendCredentials(actor: Actor, input: SendInviteRequest): Promise<void> {
      mustAdminister(actor);
      const sent = await mailer.send(
        credentialsEmail({
          to: input.to,
          username: input.username,
          tempPassword: input.tempPassword,
          inviteLink: input.inviteCode ? inviteLink(input.inviteCode) : null,
          site,
        }),
      );
      if (!sent.sent) throw new EmailNotSentError(mailer.configured);
      const user = await users.findByEmail(input.to);
      if (user) await audit(actor, 'user.invite_sent', user);
    },
  };
}
