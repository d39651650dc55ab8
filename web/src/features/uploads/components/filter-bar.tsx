import { FILE_TYPES, SORTS, type FileType } from '@upshot/contract/constants';
import { ArrowUpDown, ListFilter } from 'lucide-react';
import { useEffect } from 'react';
import {
  ActiveFilters,
  FILTER_MENU_BUTTON,
  FilterBadge,
  FilterMenu,
  FilterSearch,
} from '../../../components/filter-controls.tsx';
import { TagFilterMenu, useTagsQuery } from '../../tags/index.ts';
import type { UploadFilters } from '../hooks/use-upload-filters.ts';
import { FILE_TYPE_LABELS, SORT_LABELS } from '../labels.ts';

const FILE_TYPE_OPTIONS: (FileType | '')[] = ['', ...FILE_TYPES];

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

export function FilterBar({ filters }: { filters: UploadFilters }) {
  const { params, fileType, tag, sort } = filters;
  const tagName = useActiveTagName(filters);
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-2 md:flex-row md:items-center">
        <FilterSearch
          label="Search uploads"
          placeholder="Search uploads..."
          value={filters.searchInput}
          onChange={filters.setSearchInput}
          maxLength={200}
        />
        <div className="flex min-w-0 gap-2">
          <FilterMenu
            name="File type"
            icon={ListFilter}
            value={fileType}
            options={FILE_TYPE_OPTIONS}
            labels={FILE_TYPE_LABELS}
            onChange={filters.setFileType}
          />
          <TagFilterMenu value={tag} onChange={filters.setTag} className={FILTER_MENU_BUTTON} />
          <FilterMenu
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
        <ActiveFilters onClearAll={filters.clearAll}>
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
        </ActiveFilters>
      )}
    </div>
  );
}
