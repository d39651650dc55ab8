import { cleanDisplayName, fileTypeOf, isMimeType } from '@upshot/contract';
import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Names and types stored before they were checked on the way in: a filename keeps no control
 * or bidirectional characters (U+202E showed `gpj.exe` as `exe.jpg`), and a type that is not
 * one `type/subtype` (`image/png,image/svg+xml`, one with a line break) becomes
 * application/octet-stream. Uploads and chunked sessions alike; rows read in pages by id.
 */
export const m0005CleanNames: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of ['uploads', 'chunked_uploads'] as const) {
      const nameColumn = table === 'uploads' ? 'original_filename' : 'filename';
      let after = '';
      for (;;) {
        const page = await sql<{ id: string; name: string; mime: string }>`
          select id, ${sql.ref(nameColumn)} as name, mime_type as mime from ${sql.table(table)}
          where id > ${after} order by id limit 1000`.execute(db);
        if (page.rows.length === 0) break;
        for (const row of page.rows) {
          const name = cleanDisplayName(row.name);
          const lower = row.mime.trim().toLowerCase();
          const mime = isMimeType(lower) ? row.mime : 'application/octet-stream';
          if (name === row.name && mime === row.mime) continue;
          await sql`update ${sql.table(table)} set ${sql.ref(nameColumn)} = ${name}, mime_type = ${mime}
            where id = ${row.id}`.execute(db);
          if (table === 'uploads' && mime !== row.mime) {
            await sql`update uploads set file_type = ${fileTypeOf(mime) ?? 'other'}
              where id = ${row.id}`.execute(db);
          }
        }
        after = page.rows[page.rows.length - 1]!.id;
      }
    }
  },
};
