/**
 * The audit log: every administrator action, and an administrator reading or changing what is
 * another user's (their API token, their uploader configs), with who, what, on what and when.
 * Never a password, token or code.
 */
import crypto from 'node:crypto';
import type { AuditAction } from '@upshot/contract';
import type { AuditLogTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuditRepository } from './repository.ts';

export type AuditService = ReturnType<typeof createAuditService>;

export type AuditActor = { id: string; username: string };
export type AuditTarget = { type: AuditLogTable['target_type']; id: string; label: string };

export function createAuditService(deps: { audit: AuditRepository; clock: Clock }) {
  const { audit, clock } = deps;

  async function record(
    actor: AuditActor,
    action: AuditAction,
    target: AuditTarget,
    details: Record<string, unknown> = {},
  ): Promise<void> {
    await audit.insert({
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

    list(query: { actor?: string; action?: AuditAction | ''; page: number; limit: number }) {
      return audit.list(
        { actorId: query.actor || undefined, action: query.action || undefined },
        { offset: (query.page - 1) * query.limit, limit: query.limit },
      );
    },
  };
}
