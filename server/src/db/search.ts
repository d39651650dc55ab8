/**
 * Case-insensitive substring search over an upload's filename and vanity URL, fast on both
 * engines: PostgreSQL answers LIKE from pg_trgm GIN indexes; SQLite from an FTS5 trigram
 * table kept by triggers (migration 0002). Terms under three characters have no trigram and
 * fall back to a scan of the owner's rows.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db, Dialect } from './database.ts';

function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function likeScan(term: string): Expression<SqlBool> {
  const pattern = likePattern(term);
  return sql<SqlBool>`(lower(original_filename) like ${pattern} escape '\\' or lower(vanity_url) like ${pattern} escape '\\')`;
}

export type UploadSearch = {
  /**
   * The condition for a search term. `manyMatches` is a hint from a count made first: SQLite
   * then walks the sort order's index and probes the matches (stops after a page), instead of
   * fetching every match and sorting them, which is better only when matches are few.
   */
  where: (term: string, manyMatches?: boolean) => Expression<SqlBool>;
  /** The owner's matches counted from the search index alone, where the engine can; else null. */
  count: (
    db: Db,
    filter: { userId: string; term: string; fileType?: string },
  ) => Promise<number> | null;
};

/** Past this many matches, walking the sort index beats sorting the matches. */
export const MANY_MATCHES = 1000;

const isShort = (term: string) => [...term].length < 3;
// An FTS5 phrase is matched literally; only its double quotes need doubling.
const phrase = (term: string) => `"${term.replace(/"/g, '""')}"`;

export function uploadSearch(dialect: Dialect): UploadSearch {
  if (dialect === 'postgres') return { where: likeScan, count: () => null };
  return {
    where: (term, manyMatches = false) => {
      if (isShort(term)) return likeScan(term);
      // A unary + keeps SQLite from driving the query from the rowid list.
      return manyMatches
        ? sql<SqlBool>`+uploads.rowid in (select rowid from uploads_fts where uploads_fts match ${phrase(term)})`
        : sql<SqlBool>`uploads.rowid in (select rowid from uploads_fts where uploads_fts match ${phrase(term)})`;
    },
    count: (db, { userId, term, fileType }) => {
      if (isShort(term)) return null;
      const typeFilter = fileType ? sql`and file_type = ${fileType}` : sql``;
      return sql<{ n: number }>`select count(*) as n from uploads_fts
        where uploads_fts match ${phrase(term)} and user_id = ${userId} ${typeFilter}`
        .execute(db)
        .then((r) => Number(r.rows[0]?.n ?? 0));
    },
  };
}
