// A paged list whose last page was emptied (its last rows deleted, decided or filtered away
// elsewhere) steps back to the new last page instead of showing an empty one.
import { useEffect } from 'react';

/** What a paged answer says about itself: its page, size and total, and how many rows it holds. */
export type PageInfo = { page: number; limit: number; total: number; rows: number };

export function pageCountOf(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / limit));
}

/**
 * Moves to the last page that exists when `info` is an empty page past the end, through
 * `goTo` (for a page kept in the address, one that replaces the history entry). Returns the
 * page count for the pagination, 1 while nothing is loaded.
 */
export function useClampPage(info: PageInfo | undefined, goTo: (page: number) => void): number {
  const page = info?.page ?? 1;
  const total = info?.total ?? 0;
  const limit = info?.limit ?? 1;
  const empty = info !== undefined && info.rows === 0;
  useEffect(() => {
    if (empty && page > 1) goTo(pageCountOf(total, limit));
  }, [empty, total, page, limit, goTo]);
  return info ? pageCountOf(total, limit) : 1;
}
