/**
 * The audit log: every administrator action, and an administrator reading or changing what is
 * another user's (their API token, their desktop uploaders, their uploads), with who, what, on
 * what and when. Never a password, token or code.
 */
import crypto from 'node:crypto';
import type { AuditAction } from '@upshot/contract';
import type { AuditLogTable, UploadRow } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuditRepository } from './repository.ts';

export type AuditService = ReturnType<typeof createAuditService>;

export type AuditActor = { id: string; username: string };
export type AuditTarget = { type: AuditLogTable['target_type']; id: string; label: string };
/** What an entry about an upload needs of it. */
export type AuditedUpload = Pick<UploadRow, 'id' | 'user_id' | 'original_filename'>;

export function createAuditService(deps: { audit: AuditRepository; clock: Clock }) {
  const { audit, clock } = deps;

  const entry = (
    actor: AuditActor,
    action: AuditAction,
    target: AuditTarget,
    details: Record<string, unknown>,
  ): AuditLogTable => ({
    id: crypto.randomUUID(),
    actor_id: actor.id,
    actor_username: actor.username,
    action,
    target_type: target.type,
    target_id: target.id,
    target_label: target.label,
    details: JSON.stringify(details),
    created_at: clock.now().toISOString(),
  });

  async function record(
    actor: AuditActor,
    action: AuditAction,
    target: AuditTarget,
    details: Record<string, unknown> = {},
  ): Promise<void> {
    await audit.insert([entry(actor, action, target, details)]);
  }

  return {
    record,

    /** Records what an administrator did to another user's account; nothing for one's own. */
    async onOtherUser(
      actor: AuditActor,
      target: { id: string; username: string },
      action: AuditAction,
      details: Record<string, unknown> = {},
    ): Promise<void> {
      if (actor.id === target.id) return;
      await record(actor, action, { type: 'user', id: target.id, label: target.username }, details);
    },

    /**
     * Records what an administrator did to other users' uploads, one entry per upload, labelled
     * with its filename and naming its owner; nothing for the actor's own.
     */
    async onOtherUsersUploads(
      actor: AuditActor,
      action: AuditAction,
      uploads: AuditedUpload[],
      details: Record<string, unknown> = {},
    ): Promise<void> {
      const others = uploads.filter((u) => u.user_id !== actor.id);
      if (others.length === 0) return;
      const owners = await audit.usernames([...new Set(others.map((u) => u.user_id))]);
      await audit.insert(
        others.map((u) =>
          entry(
            actor,
            action,
            { type: 'upload', id: u.id, label: u.original_filename },
            { owner: owners.get(u.user_id) ?? null, ownerId: u.user_id, ...details },
          ),
        ),
      );
    },

    list(query: { actor?: string; action?: AuditAction | ''; page: number; limit: number }) {
      return audit.list(
        { actorId: query.actor || undefined, action: query.action || undefined },
        query,
      );
    },
  };
}
