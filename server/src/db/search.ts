/**
 * Case-insensitive substring search over an upload's filename and vanity URL, fast on both
 * engines: PostgreSQL answers LIKE from pg_trgm GIN indexes; SQLite from an FTS5 trigram
 * table kept by triggers (migration 0002). Terms under three characters have no trigram and
 * fall back to a scan of the owner's rows.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Dialect } from './database.ts';

function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function likeScan(term: string): Expression<SqlBool> {
  const pattern = likePattern(term);
  return sql<SqlBool>`(lower(original_filename) like ${pattern} escape '\\' or lower(vanity_url) like ${pattern} escape '\\')`;
}

export type UploadSearch = (term: string) => Expression<SqlBool>;

export function uploadSearch(dialect: Dialect): UploadSearch {
  if (dialect === 'postgres') return likeScan;
  return (term) => {
    if ([...term].length < 3) return likeScan(term);
    // An FTS5 phrase is matched literally; only its double quotes need doubling.
    const phrase = `"${term.replace(/"/g, '""')}"`;
    return sql<SqlBool>`uploads.rowid in (select rowid from uploads_fts where uploads_fts match ${phrase})`;
  };
}
