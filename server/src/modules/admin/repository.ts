/** Every SQL query of administration: invitations and the audit log. */
import type { Executor } from '../../db/database.ts';
import type { AuditLogTable, InviteRow } from '../../db/schema.ts';

export type AdminRepository = ReturnType<typeof createAdminRepository>;

export function createAdminRepository(db: Executor) {
  return {
    async insertInvite(row: Omit<InviteRow, 'used_at'>): Promise<void> {
      await db.insertInto('invites').values(row).execute();
    },

    async audit(row: AuditLogTable): Promise<void> {
      await db.insertInto('audit_log').values(row).execute();
    },
  };
}
