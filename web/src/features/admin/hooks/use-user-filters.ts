// The Users tab's search, filters and page. The search box updates at once; the list follows
// 300 ms after the last keystroke, so typing a name does not fire a request per letter.
import type { Role } from '@upshot/contract';
import { DEFAULT_PAGE_SIZE } from '@upshot/contract/constants';
import { useEffect, useMemo, useState } from 'react';
import type { UserListParams, UserStatusFilter } from '../api.ts';

export const SEARCH_DEBOUNCE_MS = 300;

export function useUserFilters() {
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');
  const [role, setRoleState] = useState<Role | ''>('');
  const [status, setStatusState] = useState<UserStatusFilter>('');
  const [page, setPage] = useState(1);

  useEffect(() => {
    const next = searchInput.trim();
    if (next === search) return;
    const timer = setTimeout(() => {
      setSearch(next);
      setPage(1);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchInput, search]);

  const params = useMemo<UserListParams>(
    () => ({ search, role, status, page, limit: DEFAULT_PAGE_SIZE }),
    [search, role, status, page],
  );

  return {
    params,
    searchInput,
    setSearchInput,
    hasActiveFilters: search !== '' || role !== '' || status !== '',
    setRole: (next: Role | '') => {
      setRoleState(next);
      setPage(1);
    },
    setStatus: (next: UserStatusFilter) => {
      setStatusState(next);
      setPage(1);
    },
    clearSearch: () => {
      setSearchInput('');
      setSearch('');
      setPage(1);
    },
    clearAll: () => {
      setSearchInput('');
      setSearch('');
      setRoleState('');
      setStatusState('');
      setPage(1);
    },
    setPage,
  };
}

export type UserFilters = ReturnType<typeof useUserFilters>;
