// The numbers behind the File Type Breakdown and the Images card, kept apart from the markup.
import type { TypeCount } from '@upshot/contract';
import { FILE_TYPES } from '@upshot/contract/constants';

export type BreakdownRow = { type: string; count: number; percent: number };

/** Uploads of one type in the breakdown; 0 when the type is absent. */
export function countOfType(breakdown: readonly TypeCount[], type: string): number {
  return breakdown.find((entry) => entry.type === type)?.count ?? 0;
}

// The upload filter's order, then 'other': ties keep the order a user knows from the filter.
const ORDER: readonly string[] = [...FILE_TYPES, 'other'];
const rank = (type: string) => (ORDER.includes(type) ? ORDER.indexOf(type) : ORDER.length);

/**
 * Types with at least one upload, most uploads first, each with its share of all of them as a
 * whole-number percentage (the brief rounds it), so the shares may not add up to exactly 100.
 */
export function breakdownRows(breakdown: readonly TypeCount[]): BreakdownRow[] {
  const present = breakdown.filter((entry) => entry.count > 0);
  const total = present.reduce((sum, entry) => sum + entry.count, 0);
  return present
    .map(({ type, count }) => ({ type, count, percent: Math.round((count / total) * 100) }))
    .sort((a, b) => b.count - a.count || rank(a.type) - rank(b.type));
}
