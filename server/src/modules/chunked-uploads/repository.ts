/** Every SQL query on chunked-upload sessions and their received parts. */
import type { Db } from '../../db/database.ts';
import type { ChunkedUploadRow } from '../../db/schema.ts';

export type ChunkedUploadsRepository = ReturnType<typeof createChunkedUploadsRepository>;

export function createChunkedUploadsRepository(db: Db) {
  return {
    async insert(row: Omit<ChunkedUploadRow, 'status'>): Promise<void> {
      await db.insertInto('chunked_uploads').values(row).execute();
    },

    find(id: string): Promise<ChunkedUploadRow | undefined> {
      return db.selectFrom('chunked_uploads').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async receivedIndexes(id: string): Promise<number[]> {
      const rows = await db
        .selectFrom('chunked_upload_parts')
        .select('chunk_index')
        .where('upload_id', '=', id)
        .orderBy('chunk_index')
        .execute();
      return rows.map((r) => Number(r.chunk_index));
    },

    /** Forgets a part before its bytes are (re)written, so a failed rewrite is not counted. */
    async forgetPart(id: string, index: number): Promise<void> {
      await db
        .deleteFrom('chunked_upload_parts')
        .where('upload_id', '=', id)
        .where('chunk_index', '=', index)
        .execute();
    },

    async recordPart(id: string, index: number, size: number, at: string): Promise<void> {
      await db
        .insertInto('chunked_upload_parts')
        .values({ upload_id: id, chunk_index: index, size, received_at: at })
        .onConflict((oc) =>
          oc.columns(['upload_id', 'chunk_index']).doUpdateSet({ size, received_at: at }),
        )
        .execute();
    },

    /** open -> completing; false when another request is completing it already. */
    async claimForCompletion(id: string): Promise<boolean> {
      const res = await db
        .updateTable('chunked_uploads')
        .set({ status: 'completing' })
        .where('id', '=', id)
        .where('status', '=', 'open')
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    async reopen(id: string): Promise<void> {
      await db
        .updateTable('chunked_uploads')
        .set({ status: 'open' })
        .where('id', '=', id)
        .execute();
    },

    async delete(id: string): Promise<void> {
      await db.deleteFrom('chunked_uploads').where('id', '=', id).execute();
    },

    expired(now: string, limit: number): Promise<ChunkedUploadRow[]> {
      return db
        .selectFrom('chunked_uploads')
        .selectAll()
        .where('expires_at', '<=', now)
        .limit(limit)
        .execute();
    },

    async multipartIds(): Promise<Set<string>> {
      const rows = await db.selectFrom('chunked_uploads').select('multipart_id').execute();
      return new Set(rows.map((r) => r.multipart_id));
    },
  };
}
