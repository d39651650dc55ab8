import type { AccessRequest } from '@upshot/contract';
import type { AccessRequestRow } from '../../db/schema.ts';

export function toAccessRequest(row: AccessRequestRow): AccessRequest {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    reason: row.reason,
    // member rows are never read out (the repository leaves them out).
    status: row.status as AccessRequest['status'],
    createdAt: row.created_at,
    decidedAt: row.decided_at,
  };
}
