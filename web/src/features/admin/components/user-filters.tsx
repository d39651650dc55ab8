import type { Role } from '@upshot/contract';
import { ChevronDown, Search, X } from 'lucide-react';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu.tsx';
import { Input } from '../../../components/ui/input.tsx';
import type { UserStatusFilter } from '../api.ts';
import type { UserFilters as Filters } from '../hooks/use-user-filters.ts';

const ROLE_LABELS: Record<Role | '', string> = { '': 'All Roles', user: 'User', admin: 'Admin' };
const STATUS_LABELS: Record<UserStatusFilter, string> = {
  '': 'All Statuses',
  active: 'Active',
  inactive: 'Inactive',
};

/** A button that opens a single-choice menu; its accessible name is "{name}: {current}". */
function FilterMenu<T extends string>(props: {
  name: string;
  value: T;
  labels: Record<T, string>;
  onChange: (value: T) => void;
}) {
  const { name, value, labels, onChange } = props;
  const options = Object.keys(labels) as T[];
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="outline"
          aria-label={`${name}: ${labels[value]}`}
          className="min-w-0 flex-1 justify-between px-3 md:w-36 md:flex-none"
        >
          <span className="truncate">{labels[value]}</span>
          <ChevronDown aria-hidden="true" className="text-muted-foreground" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-40">
        <DropdownMenuLabel>{name}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuRadioGroup value={value} onValueChange={(v) => onChange(v as T)}>
          {options.map((option) => (
            <DropdownMenuRadioItem key={option || 'all'} value={option}>
              {labels[option]}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function FilterBadge({ label, onRemove }: { label: string; onRemove: () => void }) {
  return (
    <Badge variant="secondary" className="max-w-full min-w-0 gap-1 py-1 pr-1 pl-2 text-xs">
      <span className="truncate" title={label}>
        {label}
      </span>
      <button
        type="button"
        aria-label={`Remove filter ${label}`}
        onClick={onRemove}
        className="rounded-sm p-0.5 text-muted-foreground outline-none hover:bg-background/60 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring/50"
      >
        <X aria-hidden="true" className="size-3" />
      </button>
    </Badge>
  );
}

export function UserFilterBar({ filters }: { filters: Filters }) {
  const { params } = filters;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-2 md:flex-row md:items-center">
        <div className="relative flex-1">
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            type="search"
            aria-label="Search users"
            placeholder="Search by username or email..."
            value={filters.searchInput}
            onChange={(event) => filters.setSearchInput(event.target.value)}
            className="pl-9"
            maxLength={100}
          />
        </div>
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
        <div aria-label="Active filters" role="group" className="flex flex-wrap items-center gap-2">
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
          <Button
            variant="ghost"
            size="sm"
            className="h-7 px-2 text-xs text-muted-foreground"
            onClick={filters.clearAll}
          >
            Clear All
          </Button>
        </div>
      )}
    </div>
  );
}
