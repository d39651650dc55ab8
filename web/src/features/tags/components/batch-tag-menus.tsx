// The selection bar's Add Tag and Remove Tag menus: one tag on or off every selected upload.
import type { Tag, Upload } from '@upshot/contract';
import { TagPlus, TagX, type LucideIcon } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu.tsx';
import { useTagsQuery } from '../api.ts';
import { useBatchTagActions } from '../hooks/use-tag-actions.ts';

type BatchTagMenusProps = {
  /** The selected uploads. */
  uploads: readonly Upload[];
  /** After a batch that worked: the brief clears the selection. */
  onDone: () => void;
  disabled?: boolean;
};

/** A tag to choose, with a count shown beside it (none for Add: every tag may be added). */
type MenuEntry = { tag: Tag; count?: number };

function TagMenu(props: {
  label: string;
  heading: string;
  icon: LucideIcon;
  entries: MenuEntry[] | string;
  disabled?: boolean;
  onChoose: (tag: Tag) => void;
}) {
  const { label, heading, icon: Icon, entries, disabled, onChoose } = props;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="secondary"
          size="sm"
          className="rounded-full"
          aria-label={label}
          title={label}
          disabled={disabled}
        >
          <Icon aria-hidden="true" />
          {/* Icons alone on a phone, where the bar has no room for words. */}
          <span className="hidden sm:inline">{label}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent side="top" align="center" className="w-56 max-w-[calc(100vw-2rem)]">
        <DropdownMenuLabel>{heading}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {typeof entries === 'string' ? (
          <DropdownMenuItem disabled className="text-muted-foreground">
            {entries}
          </DropdownMenuItem>
        ) : (
          entries.map(({ tag, count }) => (
            <DropdownMenuItem key={tag.id} aria-label={tag.name} onSelect={() => onChoose(tag)}>
              <span className="min-w-0 flex-1 truncate">{tag.name}</span>
              {count !== undefined && (
                <span className="text-xs text-muted-foreground tabular-nums">{count}</span>
              )}
            </DropdownMenuItem>
          ))
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** The tags on any of the uploads, by name, each with how many of those uploads carry it. */
function tagsOn(uploads: readonly Upload[]): MenuEntry[] {
  const byId = new Map<string, MenuEntry>();
  for (const upload of uploads) {
    for (const tag of upload.tags) {
      const entry = byId.get(tag.id);
      if (entry) entry.count = (entry.count ?? 0) + 1;
      else byId.set(tag.id, { tag, count: 1 });
    }
  }
  return [...byId.values()].sort((a, b) => a.tag.name.localeCompare(b.tag.name));
}

export function BatchTagMenus({ uploads, onDone, disabled }: BatchTagMenusProps) {
  const { data, isPending, isError } = useTagsQuery();
  const actions = useBatchTagActions();
  const ids = uploads.map((upload) => upload.id);
  const count = uploads.length;

  let addEntries: MenuEntry[] | string;
  if (isPending) addEntries = 'Loading...';
  else if (isError && !data) addEntries = 'Failed to load tags';
  else if (!data || data.tags.length === 0) addEntries = 'No tags available';
  else addEntries = data.tags.map((tag) => ({ tag }));

  const present = tagsOn(uploads);
  const busy = disabled || actions.isBusy;

  return (
    <>
      <TagMenu
        label="Add Tag"
        heading={`Add a tag to ${count} upload(s)`}
        icon={TagPlus}
        entries={addEntries}
        disabled={busy}
        onChoose={async (tag) => {
          if (await actions.addTag(ids, tag)) onDone();
        }}
      />
      <TagMenu
        label="Remove Tag"
        heading={`Remove a tag from ${count} upload(s)`}
        icon={TagX}
        entries={present.length > 0 ? present : 'No tags on these uploads'}
        disabled={busy}
        onChoose={async (tag) => {
          if (await actions.removeTag(ids, tag)) onDone();
        }}
      />
    </>
  );
}
