/**
 * Part of the uploads repository: the statistics' summary rows of an owner (uploads per type
 * group, uploads and bytes per UTC day of creation), changed in the transaction that inserts or
 * deletes the uploads, after the owner's row is locked.
 */
import type { Executor } from '../../db/database.ts';
import type { UploadRow } from '../../db/schema.ts';

export const byKey = <T>([a]: [string, T], [b]: [string, T]) => (a < b ? -1 : a > b ? 1 : 0);

/** Adds (sign 1) or takes back (sign -1) uploads in the owner's summary rows: one statement each. */
export async function addToSummaries(
  trx: Executor,
  userId: string,
  rows: Pick<UploadRow, 'file_type' | 'created_at' | 'size'>[],
  sign: 1 | -1,
): Promise<void> {
  const types = new Map<string, number>();
  const days = new Map<string, { count: number; bytes: number }>();
  for (const r of rows) {
    types.set(r.file_type, (types.get(r.file_type) ?? 0) + 1);
    const day = r.created_at.slice(0, 10);
    const d = days.get(day) ?? { count: 0, bytes: 0 };
    days.set(day, { count: d.count + 1, bytes: d.bytes + Number(r.size) });
  }
  if (types.size === 0) return;
  // In key order: concurrent changes of one owner's rows lock them in the same order.
  await trx
    .insertInto('user_type_counts')
    .values(
      [...types]
        .sort(byKey)
        .map(([fileType, n]) => ({ user_id: userId, file_type: fileType, count: sign * n })),
    )
    .onConflict((oc) =>
      oc.columns(['user_id', 'file_type']).doUpdateSet((eb) => ({
        count: eb('user_type_counts.count', '+', eb.ref('excluded.count')),
      })),
    )
    .execute();
  await trx
    .insertInto('user_daily_uploads')
    .values(
      [...days].sort(byKey).map(([day, { count, bytes }]) => ({
        user_id: userId,
        day,
        count: sign * count,
        bytes: sign * bytes,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['user_id', 'day']).doUpdateSet((eb) => ({
        count: eb('user_daily_uploads.count', '+', eb.ref('excluded.count')),
        bytes: eb('user_daily_uploads.bytes', '+', eb.ref('excluded.bytes')),
      })),
    )
    .execute();
}
