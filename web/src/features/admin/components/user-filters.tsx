import type { Role } from '@upshot/contract';
import {
  ActiveFilters,
  FilterBadge,
  FilterMenu,
  FilterSearch,
} from '../../../components/filter-controls.tsx';
import type { UserStatusFilter } from '../api.ts';
import type { UserFilters as Filters } from '../hooks/use-user-filters.ts';

const ROLE_LABELS: Record<Role | '', string> = { '': 'All Roles', user: 'User', admin: 'Admin' };
const STATUS_LABELS: Record<UserStatusFilter, string> = {
  '': 'All Statuses',
  active: 'Active',
  inactive: 'Inactive',
};

export function UserFilterBar({ filters }: { filters: Filters }) {
  const { params } = filters;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-2 md:flex-row md:items-center">
        <FilterSearch
          label="Search users"
          placeholder="Search by username or email..."
          value={filters.searchInput}
          onChange={filters.setSearchInput}
          maxLength={100}
        />
        <div className="flex min-w-0 gap-2">
          <FilterMenu
            name="Role"
            value={params.role}
            labels={ROLE_LABELS}
            onChange={filters.setRole}
          />
          <FilterMenu
            name="Status"
            value={params.status}
            labels={STATUS_LABELS}
            onChange={filters.setStatus}
          />
        </div>
      </div>

      {filters.hasActiveFilters && (
        <ActiveFilters onClearAll={filters.clearAll}>
          {params.search !== '' && (
            <FilterBadge label={`Search: ${params.search}`} onRemove={filters.clearSearch} />
          )}
          {params.role !== '' && (
            <FilterBadge
              label={`Role: ${ROLE_LABELS[params.role]}`}
              onRemove={() => filters.setRole('')}
            />
          )}
          {params.status !== '' && (
            <FilterBadge
              label={`Status: ${STATUS_LABELS[params.status]}`}
              onRemove={() => filters.setStatus('')}
            />
          )}
        </ActiveFilters>
      )}
    </div>
  );
}
