/** Every SQL query of administration: access requests. */
import { identityKey } from '@upshot/contract';
import { uniqueViolation, type Executor } from '../../db/database.ts';
import { pageOf, type PageQuery } from '../../db/paging.ts';
import type { AccessRequestRow } from '../../db/schema.ts';

export type AccessRequestsRepository = ReturnType<typeof createAccessRequestsRepository>;

export function createAccessRequestsRepository(db: Executor) {
  return {
    // --- access requests ----------------------------------------------------------------------

    /**
     * Inserts a pending request; false when one is pending for the same email already (a
     * partial unique index on the email's normal form, so two at once make one).
     */
    async insertRequest(
      row: Omit<AccessRequestRow, 'email_key' | 'status' | 'decided_at' | 'decided_by'>,
      member: boolean,
    ): Promise<boolean> {
      const email_key = identityKey(row.email);
      // A member row whose account is gone no longer holds the slot.
      if (!member) {
        await db
          .deleteFrom('access_requests')
          .where('email_key', '=', email_key)
          .where('status', '=', 'member')
          .execute();
      }
      try {
        await db
          .insertInto('access_requests')
          .values({
            ...row,
            email_key,
            status: member ? 'member' : 'pending',
            decided_at: null,
            decided_by: null,
          })
          .execute();
        return true;
      } catch (err) {
        if (uniqueViolation(err) === null) throw err;
        return false;
      }
    },

    findRequest(id: string): Promise<AccessRequestRow | undefined> {
      return db
        .selectFrom('access_requests')
        .selectAll()
        .where('id', '=', id)
        .where('status', '!=', 'member')
        .executeTakeFirst();
    },

    /** A page of requests, newest first. */
    listRequests(
      status: Exclude<AccessRequestRow['status'], 'member'> | undefined,
      page: PageQuery,
    ) {
      let q = db.selectFrom('access_requests').selectAll().where('status', '!=', 'member');
      if (status) q = q.where('status', '=', status);
      return pageOf(q.orderBy('created_at', 'desc').orderBy('id', 'desc'), page);
    },

    /** Decides a request only while it is pending; undefined when it was not. */
    decideRequest(
      id: string,
      status: 'approved' | 'rejected',
      by: string,
      at: string,
    ): Promise<AccessRequestRow | undefined> {
      return db
        .updateTable('access_requests')
        .set({ status, decided_by: by, decided_at: at })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .returningAll()
        .executeTakeFirst();
    },

    /** Puts a decided request back to pending (its approval could not make the account). */
    async reopenRequest(id: string): Promise<void> {
      await db
        .updateTable('access_requests')
        .set({ status: 'pending', decided_by: null, decided_at: null })
        .where('id', '=', id)
        .execute();
    },

    async deleteRequest(id: string): Promise<AccessRequestRow | undefined> {
      return db
        .deleteFrom('access_requests')
        .where('id', '=', id)
        .where('status', '!=', 'member')
        .returningAll()
        .executeTakeFirst();
    },
  };
}
