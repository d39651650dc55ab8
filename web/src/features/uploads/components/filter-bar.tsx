import { FILE_TYPES, SORTS, type FileType } from '@upshot/contract/constants';
import { ArrowUpDown, ChevronDown, ListFilter, Search, X, type LucideIcon } from 'lucide-react';
import { useEffect } from 'react';
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
import { TagFilterMenu, useTagsQuery } from '../../tags/index.ts';
import type { UploadFilters } from '../hooks/use-upload-filters.ts';
import { FILE_TYPE_LABELS, SORT_LABELS } from '../labels.ts';

const FILE_TYPE_OPTIONS: (FileType | '')[] = ['', ...FILE_TYPES];

/**
 * The menus share a row of their own below the search box (words only on a phone, no icons),
 * and sit beside it at one width each from `md` up, where the search box keeps room to type.
 */
const MENU_BUTTON = 'min-w-0 flex-1 justify-between px-3 md:w-40 md:flex-none';

/**
 * The chosen tag's name for its badge. A tag filter that names none of the user's tags (deleted
 * in another tab, a stale bookmark) is dropped once the tags are known, not shown as a mystery.
 */
function useActiveTagName(filters: UploadFilters): string | undefined {
  const { data, isSuccess, isFetching } = useTagsQuery();
  const { tag, dropUnknownTag } = filters;
  const name = data?.tags.find((t) => t.id === tag)?.name;
  const unknown = tag !== '' && isSuccess && !isFetching && name === undefined;
  useEffect(() => {
    if (unknown) dropUnknownTag();
  }, [unknown, dropUnknownTag]);
  return name;
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

/** A button that opens a single-choice menu; its accessible name is "{name}: {current}". */
function MenuSelect<T extends string>(props: {
  name: string;
  heading?: string;
  icon: LucideIcon;
  value: T;
  options: readonly T[];
  labels: Record<T, string>;
  onChange: (value: T) => void;
}) {
  const { name, icon: Icon, value, options, labels, onChange } = props;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" aria-label={`${name}: ${labels[value]}`} className={MENU_BUTTON}>
          <span className="flex min-w-0 items-center gap-2">
            <Icon aria-hidden="true" className="text-muted-foreground max-sm:hidden" />
            <span className="truncate">{labels[value]}</span>
          </span>
          <ChevronDown aria-hidden="true" className="text-muted-foreground" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-44">
        <DropdownMenuLabel>{props.heading ?? name}</DropdownMenuLabel>
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

export function FilterBar({ filters }: { filters: UploadFilters }) {
  const { params, fileType, tag, sort } = filters;
  const tagName = useActiveTagName(filters);
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
            aria-label="Search uploads"
            placeholder="Search uploads..."
            value={filters.searchInput}
            onChange={(event) => filters.setSearchInput(event.target.value)}
            className="pl-9"
            maxLength={200}
          />
        </div>
        <div className="flex min-w-0 gap-2">
          <MenuSelect
            name="File type"
            icon={ListFilter}
            value={fileType}
            options={FILE_TYPE_OPTIONS}
            labels={FILE_TYPE_LABELS}
            onChange={filters.setFileType}
          />
          <TagFilterMenu value={tag} onChange={filters.setTag} className={MENU_BUTTON} />
          <MenuSelect
            name="Sort"
            heading="Sort by"
            icon={ArrowUpDown}
            value={sort}
            options={SORTS}
            labels={SORT_LABELS}
            onChange={filters.setSort}
          />
        </div>
      </div>

      {filters.hasActiveFilters && (
        <div aria-label="Active filters" role="group" className="flex flex-wrap items-center gap-2">
          {params.search !== '' && (
            <FilterBadge label={`Search: ${params.search}`} onRemove={filters.clearSearch} />
          )}
          {fileType !== '' && (
            <FilterBadge
              label={`Type: ${FILE_TYPE_LABELS[fileType]}`}
              onRemove={() => filters.setFileType('')}
            />
          )}
          {tag !== '' && (
            <FilterBadge label={`Tag: ${tagName ?? '...'}`} onRemove={() => filters.setTag('')} />
          )}
          {!filters.isDefaultSort && (
            <FilterBadge
              label={`Sort: ${SORT_LABELS[sort]}`}
              onRemove={() => filters.setSort('newest')}
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
