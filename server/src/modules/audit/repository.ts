/** Every SQL query on the audit log, and the one read of users' names its entries show. */
import type { AuditAction } from '@upshot/contract';
import type { Executor } from '../../db/database.ts';
import { pageOf, type PageQuery } from '../../db/paging.ts';
import type { AuditLogTable } from '../../db/schema.ts';

export type AuditRepository = ReturnType<typeof createAuditRepository>;

export function createAuditRepository(db: Executor) {
  return {
    async insert(rows: AuditLogTable[]): Promise<void> {
      if (rows.length > 0) await db.insertInto('audit_log').values(rows).execute();
    },

    /** The usernames of these users (a user deleted meanwhile is left out). */
    async usernames(ids: string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('users')
        .select(['id', 'username'])
        .where('id', 'in', ids)
        .execute();
      return new Map(rows.map((r) => [r.id, r.username]));
    },

    /** A page of entries, newest first. */
    list(filter: { actorId?: string; action?: AuditAction }, page: PageQuery) {
      let q = db.selectFrom('audit_log').selectAll();
      if (filter.actorId) q = q.where('actor_id', '=', filter.actorId);
      if (filter.action) q = q.where('action', '=', filter.action);
      return pageOf(q.orderBy('created_at', 'desc').orderBy('id', 'desc'), page);
    },
  };
}
