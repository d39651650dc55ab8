import { sql, type Kysely, type Migration } from 'kysely';

/**
 * chunked_upload_parts.etag: the ETag the store answered for a stored part, given back when the
 * parts are joined, so that the store is never asked which parts it holds (ListParts, which
 * some S3 stores lack). Parts of open sessions stored before have none: their rows go, so those
 * chunks count as not received and are sent again. A session already completing keeps its
 * rows: its completion finds the parts joined, or fails until the session expires.
 */
export const m0013PartEtags: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('chunked_upload_parts').addColumn('etag', 'text').execute();
    await sql`delete from chunked_upload_parts where upload_id in
      (select id from chunked_uploads where status = 'open')`.execute(db);
  },
};
