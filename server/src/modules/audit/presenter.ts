import type { AuditEntry } from '@upshot/contract';
import type { AuditLogRow } from '../../db/schema.ts';

export function toAuditEntry(row: AuditLogRow): AuditEntry {
  return {
    id: row.id,
    actorId: row.actor_id,
    actorUsername: row.actor_username,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    targetLabel: row.target_label,
    details: JSON.parse(row.details) as Record<string, unknown>,
    createdAt: row.created_at,
  };
}
