/**
 * Access requests: submitted by visitors, approved into accounts with an invitation (the users
 * module makes them), or rejected, and the emails that go with them. Every decision goes to
 * the audit log.
 */
import crypto from 'node:crypto';
import type { CreateAccessRequest } from '@upshot/contract';
import type { AccessRequestRow, UserRow } from '../../db/schema.ts';
import { ConflictError, NotFoundError } from '../../errors.ts';
import type { Actor } from '../../lib/caller.ts';
import type { Clock } from '../../lib/clock.ts';
import { siteOf } from '../../lib/email-layout.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { AuditService } from '../audit/index.ts';
import type { AuthService } from '../auth/index.ts';
import type { PreferencesService } from '../preferences/index.ts';
import type { UserManagement, UsersService } from '../users/index.ts';
import { newRequestEmail, rejectionEmail } from './emails.ts';
import type { AccessRequestsRepository } from './repository.ts';

export type AccessRequestsService = ReturnType<typeof createAccessRequestsService>;

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

export function createAccessRequestsService(deps: {
  requests: AccessRequestsRepository;
  audit: AuditService;
  users: UsersService;
  management: Pick<UserManagement, 'createWithFreeUsername' | 'invite'>;
  auth: Pick<AuthService, 'limitAttempts'>;
  preferences: Pick<PreferencesService, 'wantsEmail'>;
  mailer: Mailer;
  clock: Clock;
  publicUrl: string;
  log: Logger;
}) {
  const { requests, users, management, mailer, clock } = deps;
  const site = siteOf(deps.publicUrl);
  const audit = (
    actor: Actor,
    action: 'access_request.approved' | 'access_request.rejected' | 'access_request.deleted',
    row: AccessRequestRow,
    details: Record<string, unknown>,
  ) =>
    deps.audit.record(
      actor,
      action,
      { type: 'access_request', id: row.id, label: `${row.name} <${row.email}>` },
      details,
    );

  /** Emails every active administrator who wants notifications about a new request. */
  async function notifyAdmins(request: { name: string; email: string; reason: string }) {
    if (!mailer.configured) return;
    const admins = await users.activeAdmins();
    await Promise.allSettled(
      admins.map(async (a) => {
        if (await deps.preferences.wantsEmail(a.id)) {
          await mailer.send(newRequestEmail({ to: a.email, request, site }));
        }
      }),
    );
  }

  return {
    /**
     * A visitor asks for an account. An email that has an account already gets the same answer
     * and makes nothing an administrator must act on; a second pending request for one email
     * is a 409. Administrators who want notifications get an email.
     */
    async requestAccess(input: CreateAccessRequest, ip: string): Promise<void> {
      await deps.auth.limitAttempts(
        `access-request:ip:${ip}`,
        ACCESS_REQUEST_LIMIT,
        'access requests',
      );
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
      if (!(await requests.insertRequest(row, member))) {
        throw new ConflictError('A request for this email is already pending');
      }
      if (member) return;
      // After the answer, all at once: the visitor never waits on a slow mail server (a
      // notification that fails is logged by the mailer and the request stands).
      notifyAdmins(row).catch((err: unknown) =>
        deps.log.error({ err, accessRequestId: row.id }, 'could not notify administrators'),
      );
    },

    /** A page of requests (newest first), of one status or all. */
    listRequests(query: {
      status?: Exclude<AccessRequestRow['status'], 'member'> | '';
      page: number;
      limit: number;
    }) {
      return requests.listRequests(query.status || undefined, query);
    },

    /**
     * Approves (makes the account with an invitation, emails the link) or rejects (emails a
     * notice when email is configured) a pending request; anything else is a 409.
     */
    async decideRequest(actor: Actor, id: string, status: 'approved' | 'rejected') {
      const existing = await requests.findRequest(id);
      if (!existing) throw new NotFoundError('Access request not found');
      const request = await requests.decideRequest(id, status, actor.id, clock.now().toISOString());
      if (!request) {
        // Decided meanwhile (perhaps by a request running beside this one): say how it is now.
        const now = await requests.findRequest(id);
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
        await audit(actor, 'access_request.rejected', request, { emailSent: sent.sent });
        return { request, user: null, inviteUrl: null, emailSent: sent.sent };
      }

      let user: UserRow;
      try {
        user = await management.createWithFreeUsername({
          email: request.email,
          base: usernameFrom(request.name, request.email),
        });
      } catch (err) {
        await requests.reopenRequest(id); // nothing was made: it can be decided again
        throw err;
      }
      const { url, emailSent } = await management.invite(user, { approved: true });
      await audit(actor, 'access_request.approved', request, {
        userId: user.id,
        username: user.username,
        emailSent,
      });
      return { request, user, inviteUrl: url, emailSent };
    },

    async deleteRequest(actor: Actor, id: string): Promise<void> {
      const row = await requests.deleteRequest(id);
      if (!row) throw new NotFoundError('Access request not found');
      await audit(actor, 'access_request.deleted', row, { status: row.status });
    },
  };
}
