/** Every SQL query on the audit log. */
import type { AuditAction } from '@upshot/contract';
import type { Executor } from '../../db/database.ts';
import type { AuditLogRow, AuditLogTable } from '../../db/schema.ts';

export type AuditRepository = ReturnType<typeof createAuditRepository>;

export function createAuditRepository(db: Executor) {
  return {
    async insert(row: AuditLogTable): Promise<void> {
      await db.insertInto('audit_log').values(row).execute();
    },

    async list(
      filter: { actorId?: string; action?: AuditAction },
      page: { offset: number; limit: number },
    ): Promise<{ rows: AuditLogRow[]; total: number }> {
      let q = db.selectFrom('audit_log');
      if (filter.actorId) q = q.where('actor_id', '=', filter.actorId);
      if (filter.action) q = q.where('action', '=', filter.action);
      const [rows, count] = await Promise.all([
        q
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },
  };
}
