/**
 * Case-insensitive substring search over an upload's filename and vanity URL, fast on both
 * engines: PostgreSQL answers LIKE from a pg_trgm GIN index on a narrow side table; SQLite
 * from an FTS5 trigram table (migrations 0002 and 0003); both are kept by triggers. The
 * matches are counted first, from the search index alone, and the count picks the page's plan.
 * Terms under three characters have no trigram: SQLite scans the owner's rows for them.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db, Dialect } from './database.ts';

export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function likeScan(term: string): Expression<SqlBool> {
  const pattern = likePattern(term);
  return sql<SqlBool>`(lower(original_filename) like ${pattern} escape '\\' or lower(vanity_url) like ${pattern} escape '\\')`;
}

/**
 * What a search matches in the rows of a tag (upload_tags.body): the filename and vanity URL,
 * lower-cased, on two lines (a term never holds a line break, so it cannot span both).
 */
export function tagSearchText(filename: string, vanityUrl: string | null): string {
  return searchFold(`${filename}\n${vanityUrl ?? ''}`);
}

/**
 * Lower case for matching a term inside a text: also the one sigma (JavaScript lower-cases a
 * capital sigma to the final form at the end of a word, so a term 'ΟΔΟΣ' would not be found in
 * 'ΟΔΟΣ.txt', where it is followed by a letter).
 */
export function searchFold(text: string): string {
  return text.toLowerCase().replace(/ς/g, 'σ');
}

export type UploadSearch = {
  /**
   * The condition for a search term among one owner's uploads (of one type group, when given).
   * `manyMatches` is a hint from a count made first: SQLite then walks the sort order's index
   * and probes the matches (stops after a page), instead of fetching every match and sorting
   * them, which is better only when matches are few.
   */
  where: (filter: SearchFilter, manyMatches?: boolean) => Expression<SqlBool>;
  /** The owner's matches counted from the search index alone, where the engine can; else null. */
  count: (db: Db, filter: SearchFilter) => Promise<number> | null;
};

export type SearchFilter = { userId: string; term: string; fileType?: string };

/** Past this many matches, walking the sort index beats sorting the matches. */
export const MANY_MATCHES = 1000;

const isShort = (term: string) => [...term].length < 3;
// An FTS5 phrase is matched literally; only its double quotes need doubling.
const phrase = (term: string) => `"${term.replace(/"/g, '""')}"`;

/**
 * The FTS5 query for SQLite (migration 0003): the owner's token, the type group's first three
 * letters, and the term, each in its own column. An owner without a token (no uploads yet)
 * gets one that matches nothing.
 */
function ftsQuery({ userId, term, fileType }: SearchFilter): Expression<string> {
  const rest = `${fileType ? ` AND kind : ${phrase(fileType.slice(0, 3))}` : ''} AND body : ${phrase(term)}`;
  return sql<string>`('owner : "' || coalesce((select token from search_owners where user_id = ${userId}), char(1, 1, 1)) || '"' || ${rest})`;
}

export function uploadSearch(dialect: Dialect): UploadSearch {
  if (dialect === 'postgres') {
    // upload_search (migration 0003): one lower-cased text per upload, with a trigram index.
    const matches = ({ userId, term, fileType }: SearchFilter) =>
      sql`select upload_id from upload_search where user_id = ${userId}
        ${fileType ? sql`and file_type = ${fileType}` : sql``}
        and body like ${likePattern(term)} escape '\\'`;
    return {
      where: (filter, manyMatches = false) =>
        manyMatches
          ? // Many matches: walk the sort order's index and test each row; a page is soon full.
            sql<SqlBool>`lower(uploads.original_filename || chr(10) || coalesce(uploads.vanity_url, '')) like ${likePattern(filter.term)} escape '\\'`
          : sql<SqlBool>`uploads.id in (${matches(filter)})`,
      count: (db, filter) =>
        sql<{ n: number }>`select count(*) as n from (${matches(filter)}) m`
          .execute(db)
          .then((r) => Number(r.rows[0]?.n ?? 0)),
    };
  }
  return {
    where: (filter, manyMatches = false) => {
      if (isShort(filter.term)) return likeScan(filter.term);
      const matches = sql`select rowid from uploads_fts where uploads_fts match ${ftsQuery(filter)}`;
      // A unary + keeps SQLite from driving the query from the rowid list.
      return manyMatches
        ? sql<SqlBool>`+uploads.rowid in (${matches})`
        : sql<SqlBool>`uploads.rowid in (${matches})`;
    },
    count: (db, filter) => {
      if (isShort(filter.term)) return null;
      return sql<{
        n: number;
      }>`select count(*) as n from uploads_fts where uploads_fts match ${ftsQuery(filter)}`
        .execute(db)
        .then((r) => Number(r.rows[0]?.n ?? 0));
    },
  };
}
