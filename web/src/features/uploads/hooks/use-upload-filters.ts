// The Uploads screen's filters and page, kept in the query string
// (?search=&type=&tag=&sort=&page=, defaults left out), so a reload, back and forward keep them
// and a filtered list can be shared.
// The search box updates at once; the URL and the list follow it 300 ms after the last
// keystroke, so typing a name does not fire a request (or a history entry) per letter.
import type { FileType, Sort } from '@upshot/contract';
import {
  DEFAULT_PAGE_SIZE,
  DEFAULT_SORT,
  FILE_TYPES,
  MAX_SEARCH_LENGTH,
  SORTS,
} from '@upshot/contract/constants';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { UploadListParams } from '../api.ts';

export const SEARCH_DEBOUNCE_MS = 300;

type UrlFilters = { search: string; type: FileType | ''; tag: string; sort: Sort; page: number };

/** The shape of a record id (the contract's `Id`); anything else in `?tag=` is ignored. */
const TAG_ID = /^[A-Za-z0-9_-]{1,100}$/;

function isOneOf<T extends string>(list: readonly T[], value: string | null): value is T {
  return value !== null && (list as readonly string[]).includes(value);
}

/** The filters a query string asks for; anything malformed reads as the default. */
export function readUrlFilters(params: URLSearchParams): UrlFilters {
  const type = params.get('type');
  const tag = params.get('tag') ?? '';
  const sort = params.get('sort');
  const page = Number(params.get('page'));
  return {
    search: (params.get('search') ?? '').trim().slice(0, MAX_SEARCH_LENGTH),
    type: isOneOf(FILE_TYPES, type) ? type : '',
    tag: TAG_ID.test(tag) ? tag : '',
    sort: isOneOf(SORTS, sort) ? sort : DEFAULT_SORT,
    page: Number.isSafeInteger(page) && page > 1 ? page : 1,
  };
}

/** The query string with `changes` applied; defaults are left out, other parameters kept. */
function writeUrlFilters(current: URLSearchParams, changes: Partial<UrlFilters>): URLSearchParams {
  const next = new URLSearchParams(current);
  const set = (key: string, value: string, fallback: string) => {
    if (value === fallback) next.delete(key);
    else next.set(key, value);
  };
  if (changes.search !== undefined) set('search', changes.search.trim(), '');
  if (changes.type !== undefined) set('type', changes.type, '');
  if (changes.tag !== undefined) set('tag', changes.tag, '');
  if (changes.sort !== undefined) set('sort', changes.sort, DEFAULT_SORT);
  if (changes.page !== undefined) set('page', String(changes.page), '1');
  return next;
}

export function useUploadFilters(limit = DEFAULT_PAGE_SIZE) {
  const [searchParams, setSearchParams] = useSearchParams();
  const { search, type: fileType, tag, sort, page } = readUrlFilters(searchParams);

  const update = useCallback(
    (changes: Partial<UrlFilters>, options: { replace?: boolean } = {}) => {
      const next = writeUrlFilters(searchParams, changes);
      // The same list again is not a new history entry.
      if (next.toString() !== searchParams.toString()) setSearchParams(next, options);
    },
    [searchParams, setSearchParams],
  );

  // The box follows the URL when it changes under it (back, forward, a shared link), but not
  // when the change is the box's own debounced value arriving: the user may have typed on since.
  const [searchInput, setSearchInput] = useState(search);
  const [sync, setSync] = useState({ shown: search, committed: search });
  if (search !== sync.shown) {
    setSync({ shown: search, committed: search });
    if (search !== sync.committed) setSearchInput(search);
  }

  useEffect(() => {
    const wanted = searchInput.trim();
    if (wanted === search) return;
    const timer = setTimeout(() => {
      setSync((current) => ({ ...current, committed: wanted }));
      update({ search: wanted, page: 1 });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchInput, search, update]);

  const params = useMemo<UploadListParams>(
    () => ({ search, type: fileType, tag, sort, page, limit }),
    [search, fileType, tag, sort, page, limit],
  );

  return {
    params,
    searchInput,
    setSearchInput,
    fileType,
    tag,
    sort,
    page,
    setPage: useCallback((next: number) => update({ page: next }), [update]),
    /** Moves to another page without a history entry (the one asked for no longer exists). */
    replacePage: useCallback((next: number) => update({ page: next }, { replace: true }), [update]),
    setFileType(value: FileType | '') {
      update({ type: value, page: 1 });
    },
    setTag(value: string) {
      update({ tag: value, page: 1 });
    },
    /** Drops a tag filter that names no tag of the user's, without a history entry. */
    dropUnknownTag: useCallback(() => update({ tag: '', page: 1 }, { replace: true }), [update]),
    setSort(value: Sort) {
      update({ sort: value, page: 1 });
    },
    /** Removes the search at once, without waiting for the debounce. */
    clearSearch() {
      setSearchInput('');
      update({ search: '', page: 1 });
    },
    clearAll() {
      setSearchInput('');
      update({ search: '', type: '', tag: '', sort: DEFAULT_SORT, page: 1 });
    },
    /** Filters that narrow the list (sorting only reorders it). */
    isFiltered: search !== '' || fileType !== '' || tag !== '',
    hasActiveFilters: search !== '' || fileType !== '' || tag !== '' || sort !== DEFAULT_SORT,
    isDefaultSort: sort === DEFAULT_SORT,
  };
}

export type UploadFilters = ReturnType<typeof useUploadFilters>;
