// The Uploads screen's filters and page. The search box updates at once; the list follows it
// 300 ms after the last keystroke, so typing a name does not fire a request per letter.
import { DEFAULT_PAGE_SIZE, type FileType, type Sort } from '@upshot/contract';
import { useEffect, useMemo, useState } from 'react';
import type { UploadListParams } from '../api.ts';

export const SEARCH_DEBOUNCE_MS = 300;
const DEFAULT_SORT: Sort = 'newest';

export function useUploadFilters(limit = DEFAULT_PAGE_SIZE) {
  const [searchInput, setSearchInputState] = useState('');
  const [search, setSearch] = useState('');
  const [fileType, setFileTypeState] = useState<FileType | ''>('');
  const [sort, setSortState] = useState<Sort>(DEFAULT_SORT);
  const [page, setPage] = useState(1);

  useEffect(() => {
    if (searchInput === search) return;
    const timer = setTimeout(() => {
      setSearch(searchInput);
      setPage(1);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchInput, search]);

  const params = useMemo<UploadListParams>(
    () => ({ search: search.trim(), type: fileType, sort, page, limit }),
    [search, fileType, sort, page, limit],
  );

  return {
    params,
    searchInput,
    setSearchInput: setSearchInputState,
    fileType,
    sort,
    page,
    setPage,
    setFileType(value: FileType | '') {
      setFileTypeState(value);
      setPage(1);
    },
    setSort(value: Sort) {
      setSortState(value);
      setPage(1);
    },
    /** Removes the search at once, without waiting for the debounce. */
    clearSearch() {
      setSearchInputState('');
      setSearch('');
      setPage(1);
    },
    clearAll() {
      setSearchInputState('');
      setSearch('');
      setFileTypeState('');
      setSortState(DEFAULT_SORT);
      setPage(1);
    },
    /** Filters that narrow the list (sorting only reorders it). */
    isFiltered: params.search !== '' || fileType !== '',
    hasActiveFilters: params.search !== '' || fileType !== '' || sort !== DEFAULT_SORT,
    isDefaultSort: sort === DEFAULT_SORT,
  };
}

export type UploadFilters = ReturnType<typeof useUploadFilters>;
