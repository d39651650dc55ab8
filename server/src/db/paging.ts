/** Pages of a list, as every list endpoint answers them: the rows, how many in all, which page. */
import { sql, type SelectQueryBuilder } from 'kysely';

/** The page asked for: its number (from 1) and how many rows a page holds. */
export type PageQuery = { page: number; limit: number };

export type Page<Row> = { rows: Row[]; total: number; page: number; limit: number };

/** How many rows come before the page. */
export const offsetOf = (p: PageQuery): number => (p.page - 1) * p.limit;

/**
 * The page of an ordered query's rows, and how many rows the query matches in all (the same
 * query without its selection and order, counted beside it).
 */
export async function pageOf<DB, TB extends keyof DB, Row>(
  query: SelectQueryBuilder<DB, TB, Row>,
  p: PageQuery,
): Promise<Page<Row>> {
  const counted = query
    .clearSelect()
    .clearOrderBy()
    .select(sql<number>`count(*)`.as('n'));
  const [rows, count] = await Promise.all([
    query.limit(p.limit).offset(offsetOf(p)).execute(),
    counted.executeTakeFirstOrThrow() as Promise<{ n: number | string }>,
  ]);
  return { rows: rows as Row[], total: Number(count.n), page: p.page, limit: p.limit };
}
