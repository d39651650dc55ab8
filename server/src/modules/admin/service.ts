/**
 * Administration: users (created with a temporary password and, if asked, an invitation;
 * changed, reset, deleted), access requests (submitted by visitors, approved into accounts with
 * an invitation, or rejected), and the emails that go with them. Every action goes to the
 * audit log.
 */
import crypto from 'node:crypto';
import {
  type AuditAction,
  type CreateAccessRequest,
  type CreateUserRequest,
  type SendInviteRequest,
  type UpdateUserRequest,
} from '@upshot/contract';
import type { AccessRequestRow, UserRow } from '../../db/schema.ts';
import { AppError, ConflictError, NotFoundError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { AuditService, AuditTarget } from '../audit/index.ts';
import type { AuthService } from '../auth/index.ts';
import { temporaryPassword } from '../auth/index.ts';
import type { ChunkedUploadsService } from '../chunked-uploads/index.ts';
import type { PreferencesService } from '../preferences/index.ts';
import type { UploadsService } from '../uploads/index.ts';
import type { AuthUser, UserChanges, UsersService } from '../users/index.ts';
import {
  credentialsEmail,
  invitationEmail,
  newRequestEmail,
  rejectionEmail,
  type Site,
} from './emails.ts';
import type { AdminRepository } from './repository.ts';

export type AdminService = ReturnType<typeof createAdminService>;

type Actor = Pick<AuthUser, 'id' | 'username' | 'role'>;

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

/** Access requests a visitor may send per address in an hour. */
export const ACCESS_REQUEST_LIMIT = { max: 5, windowMs: 60 * 60 * 1000 };
export const ACCESS_REQUEST_SUBMITTED =
  'Your request has been submitted. You will receive an email once it has been approved.';

/** A username from a person's name: lower-case letters, digits, dots; the email's start if none. */
export function usernameFrom(name: string, email: string): string {
  const plain = (s: string) =>
    s
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '.')
      .replace(/^\.+|\.+$/g, '')
      .slice(0, 30)
      .replace(/\.+$/, '');
  return plain(name) || plain(email.split('@')[0] ?? '') || 'user';
}

export function createAdminService(deps: {
  admin: AdminRepository;
  audit: AuditService;
  users: UsersService;
  auth: AuthService;
  preferences: PreferencesService;
  uploads: UploadsService;
  chunked: ChunkedUploadsService;
  mailer: Mailer;
  clock: Clock;
  publicUrl: string;
  log: Logger;
}) {
  const { admin, users, auth, uploads, chunked, mailer, clock } = deps;
  const site: Site = { name: `Upshot (${new URL(deps.publicUrl).host})`, url: deps.publicUrl };
  const inviteLink = (code: string) =>
    `${deps.publicUrl}/register?invite=${encodeURIComponent(code)}`;

  const audit = (
    actor: Actor,
    action: AuditAction,
    target: AuditTarget,
    details: Record<string, unknown> = {},
  ) => deps.audit.record(actor, action, target, details);
  const userTarget = (row: Pick<UserRow, 'id' | 'username'>) => ({
    type: 'user' as const,
    id: row.id,
    label: row.username,
  });
  const requestTarget = (row: AccessRequestRow) => ({
    type: 'access_request' as const,
    id: row.id,
    label: `${row.name} <${row.email}>`,
  });

  /** Emails every active administrator who wants notifications about a new request. */
  async function notifyAdmins(request: { name: string; email: string; reason: string }) {
    if (!mailer.configured) return;
    const admins = await users.list({ role: 'admin', active: true }, { offset: 0, limit: 1000 });
    await Promise.allSettled(
      admins.rows.map(async (a) => {
        if (await deps.preferences.wantsEmail(a.id)) {
          await mailer.send(newRequestEmail({ to: a.email, request, site }));
        }
      }),
    );
  }

  /** Creates a user under a free username: `base`, then `base2`, `base3`... */
  async function createWithFreeUsername(input: {
    email: string;
    base: string;
    password: string;
  }): Promise<UserRow> {
    for (let n = 1; n <= 50; n += 1) {
      const username = n === 1 ? input.base : `${input.base}${n}`;
      try {
        return await users.create({
          email: input.email,
          username,
          role: 'user',
          password: input.password,
          mustChangePassword: true,
        });
      } catch (err) {
        if (!(err instanceof ConflictError) || !err.message.includes('username')) throw err;
      }
    }
    return users.create({
      email: input.email,
      username: `${input.base}${crypto.randomInt(1000, 1_000_000)}`,
      role: 'user',
      password: input.password,
      mustChangePassword: true,
    });
  }

  return {
    // --- users --------------------------------------------------------------------------------

    async createUser(actor: Actor, input: Required<CreateUserRequest>) {
      const tempPassword = temporaryPassword();
      const user = await users.create({
        email: input.email,
        username: input.username,
        role: input.role,
        password: tempPassword,
        mustChangePassword: true,
      });
      let invitation: { code: string; url: string } | null = null;
      let emailSent = false;
      if (input.sendInvite) {
        const { code, expiresAt } = await auth.createInvite(user.id);
        invitation = { code, url: inviteLink(code) };
        const sent = await mailer.send(
          invitationEmail({
            to: user.email,
            username: user.username,
            link: invitation.url,
            expiresAt,
            site,
          }),
        );
        emailSent = sent.sent;
      }
      await audit(actor, 'user.created', userTarget(user), {
        role: user.role,
        invited: input.sendInvite,
        emailSent,
      });
      return { user, tempPassword, invitation, emailSent };
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
      const changed: Record<string, { from: unknown; to: unknown }> = {};
      const compare = (key: string, from: unknown, to: unknown) => {
        if (String(from) !== String(to)) changed[key] = { from, to };
      };
      compare('isActive', before.is_active === 1, after.is_active === 1);
      compare('role', before.role, after.role);
      compare('diskQuota', Number(before.disk_quota), Number(after.disk_quota));
      compare('username', before.username, after.username);
      if (Object.keys(changed).length > 0) {
        await audit(actor, 'user.updated', userTarget(after), changed);
      }
      return after;
    },

    /** Deletes the user and their rows, then their bytes (the orphan sweep catches a crash between). */
    async deleteUser(actor: Actor, id: string): Promise<void> {
      const keys = await uploads.storageKeysOf(id);
      const unfinished = await chunked.unfinishedOf(id);
      const row = await users.delete(actor, id).catch(async (err: unknown) => {
        // Deleted a moment ago by another request, which may be waiting still: so does this.
        if (err instanceof NotFoundError) await uploads.linksChanged();
        throw err;
      });
      // Their links stop being served everywhere before this is answered.
      await uploads.linksChanged();
      await audit(actor, 'user.deleted', userTarget(row), { email: row.email });
      await uploads.removeBytes(keys);
      await chunked.abortAll(unfinished);
    },

    async resetPassword(actor: Actor, id: string): Promise<string> {
      const row = await users.get(id);
      const tempPassword = await auth.setTemporaryPassword(id);
      if (tempPassword === null) throw new NotFoundError('User not found');
      await audit(actor, 'user.password_reset', userTarget(row));
      return tempPassword;
    },

    /** Emails a user their credentials (and invitation); refused (503) when it did not go out. */
    async sendInvite(actor: Actor, input: SendInviteRequest): Promise<void> {
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
      if (user) await audit(actor, 'user.invite_sent', userTarget(user));
    },

    // --- access requests ----------------------------------------------------------------------

    /**
     * A visitor asks for an account. An email that has an account already gets the same answer
     * and makes nothing an administrator must act on; a second pending request for one email
     * is a 409. Administrators who want notifications get an email.
     */
    async requestAccess(input: CreateAccessRequest, ip: string): Promise<void> {
      await auth.limitAttempts(`access-request:ip:${ip}`, ACCESS_REQUEST_LIMIT, 'access requests');
      // An email with an account is recorded too (as `member`, never shown), so a second
      // request answers the same 409 whether or not the email has an account.
      const member = (await users.findByEmail(input.email)) !== undefined;
      const row = {
        id: crypto.randomUUID(),
        email: input.email,
        name: input.name,
        reason: input.reason,
        created_at: clock.now().toISOString(),
      };
      if (!(await admin.insertRequest(row, member))) {
        throw new ConflictError('A request for this email is already pending');
      }
      if (member) return;
      // After the answer, all at once: the visitor never waits on a slow mail server (a
      // notification that fails is logged by the mailer and the request stands).
      notifyAdmins(row).catch((err: unknown) =>
        deps.log.error({ err, accessRequestId: row.id }, 'could not notify administrators'),
      );
    },

    async listRequests(query: {
      status?: Exclude<AccessRequestRow['status'], 'member'> | '';
      page: number;
      limit: number;
    }) {
      return admin.listRequests(query.status || undefined, {
        offset: (query.page - 1) * query.limit,
        limit: query.limit,
      });
    },

    /**
     * Approves (makes the account with an invitation, emails the link) or rejects (emails a
     * notice when email is configured) a pending request; anything else is a 409.
     */
    async decideRequest(actor: Actor, id: string, status: 'approved' | 'rejected') {
      const existing = await admin.findRequest(id);
      if (!existing) throw new NotFoundError('Access request not found');
      const request = await admin.decideRequest(id, status, actor.id, clock.now().toISOString());
      if (!request) {
        // Decided meanwhile (perhaps by a request running beside this one): say how it is now.
        const now = await admin.findRequest(id);
        if (!now) throw new NotFoundError('Access request not found');
        throw new ConflictError(
          now.status === 'pending'
            ? 'This request is being decided; try again'
            : `This request was ${now.status} already`,
        );
      }

      if (status === 'rejected') {
        const sent = await mailer.send(
          rejectionEmail({ to: request.email, name: request.name, site }),
        );
        await audit(actor, 'access_request.rejected', requestTarget(request), {
          emailSent: sent.sent,
        });
        return { request, user: null, inviteUrl: null, emailSent: sent.sent };
      }

      let user: UserRow;
      try {
        user = await createWithFreeUsername({
          email: request.email,
          base: usernameFrom(request.name, request.email),
          password: temporaryPassword(),
        });
      } catch (err) {
        await admin.reopenRequest(id); // nothing was made: it can be decided again
        throw err;
      }
      const { code, expiresAt } = await auth.createInvite(user.id);
      const url = inviteLink(code);
      const sent = await mailer.send(
        invitationEmail({
          to: user.email,
          username: user.username,
          link: url,
          expiresAt,
          approved: true,
          site,
        }),
      );
      await audit(actor, 'access_request.approved', requestTarget(request), {
        userId: user.id,
        username: user.username,
        emailSent: sent.sent,
      });
      return { request, user, inviteUrl: url, emailSent: sent.sent };
    },

    async deleteRequest(actor: Actor, id: string): Promise<void> {
      const row = await admin.deleteRequest(id);
      if (!row) throw new NotFoundError('Access request not found');
      await audit(actor, 'access_request.deleted', requestTarget(row), { status: row.status });
    },
  };
}
