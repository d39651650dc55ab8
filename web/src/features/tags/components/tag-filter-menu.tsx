// The filter bar's tag menu: narrow the list to one tag, or open the Manage tags dialog.
import { ChevronDown, Settings2, Tags } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu.tsx';
import { cn } from '../../../lib/utils.ts';
import { useTagsQuery } from '../api.ts';
import { ManageTagsDialog } from './manage-tags-dialog.tsx';

const ALL_TAGS_LABEL = 'All Tags';

type TagFilterMenuProps = {
  /** The chosen tag's id, '' for all. */
  value: string;
  onChange: (tagId: string) => void;
  className?: string;
};

export function TagFilterMenu({ value, onChange, className }: TagFilterMenuProps) {
  const { data, isPending, isError } = useTagsQuery();
  const [manageOpen, setManageOpen] = useState(false);
  const tags = data?.tags ?? [];
  const current = value === '' ? ALL_TAGS_LABEL : (tags.find((t) => t.id === value)?.name ?? 'Tag');

  let status: string | null = null;
  if (isPending) status = 'Loading...';
  else if (isError && !data) status = 'Failed to load tags';
  else if (tags.length === 0) status = 'No tags yet';

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button
            variant="outline"
            aria-label={`Tag: ${current}`}
            className={cn('min-w-0 justify-between', className)}
          >
            <span className="flex min-w-0 items-center gap-2">
              <Tags aria-hidden="true" className="text-muted-foreground max-sm:hidden" />
              <span className="truncate">{current}</span>
            </span>
            <ChevronDown aria-hidden="true" className="text-muted-foreground" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-56 max-w-[calc(100vw-2rem)]">
          <DropdownMenuLabel>Tag</DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuRadioGroup value={value} onValueChange={onChange}>
            <DropdownMenuRadioItem value="">{ALL_TAGS_LABEL}</DropdownMenuRadioItem>
            {tags.map((tag) => (
              <DropdownMenuRadioItem
                key={tag.id}
                value={tag.id}
                aria-label={`${tag.name}, ${tag.uploadCount} upload(s)`}
              >
                <span className="min-w-0 flex-1 truncate">{tag.name}</span>
                <span className="text-xs text-muted-foreground tabular-nums">
                  {tag.uploadCount}
                </span>
              </DropdownMenuRadioItem>
            ))}
          </DropdownMenuRadioGroup>
          {status && (
            <DropdownMenuItem disabled className="text-muted-foreground">
              {status}
            </DropdownMenuItem>
          )}
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => setManageOpen(true)}>
            <Settings2 aria-hidden="true" />
            Manage tags
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <ManageTagsDialog
        open={manageOpen}
        onOpenChange={setManageOpen}
        onDeleted={(tag) => {
          // The list filtered by a tag that no longer exists would be empty for no reason.
          if (tag.id === value) onChange('');
        }}
      />
    </>
  );
}
