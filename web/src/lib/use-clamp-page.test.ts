import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { pageCountOf, useClampPage, type PageInfo } from './use-clamp-page.ts';

function clamp(info: PageInfo | undefined) {
  const goTo = vi.fn();
  const { result } = renderHook(() => useClampPage(info, goTo));
  return { goTo, pageCount: result.current };
}

describe('useClampPage', () => {
  it('moves from an empty page past the end to the last page', () => {
    const { goTo, pageCount } = clamp({ page: 3, limit: 20, total: 40, rows: 0 });
    expect(goTo).toHaveBeenCalledWith(2);
    expect(pageCount).toBe(2);
    expect(clamp({ page: 9, limit: 20, total: 21, rows: 0 }).goTo).toHaveBeenCalledWith(2);
    // Nothing left at all: the first page, which says so.
    expect(clamp({ page: 2, limit: 20, total: 0, rows: 0 }).goTo).toHaveBeenCalledWith(1);
  });

  it('stays on a page with rows, on an empty first page, and while nothing is loaded', () => {
    expect(clamp({ page: 2, limit: 20, total: 21, rows: 1 }).goTo).not.toHaveBeenCalled();
    expect(clamp({ page: 1, limit: 20, total: 0, rows: 0 }).goTo).not.toHaveBeenCalled();
    expect(clamp(undefined)).toMatchObject({ pageCount: 1 });
    expect(clamp(undefined).goTo).not.toHaveBeenCalled();
  });

  it('counts at least one page', () => {
    expect(pageCountOf(0, 20)).toBe(1);
    expect(pageCountOf(20, 20)).toBe(1);
    expect(pageCountOf(21, 20)).toBe(2);
  });
});
