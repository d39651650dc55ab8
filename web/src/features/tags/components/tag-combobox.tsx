// The tag editor's input: a combobox (WAI-ARIA "list autocomplete") over the user's tags.
// Typing lists matching tags not on the upload; the arrow keys move through them and a name
// that no tag has yet is offered for creation. Enter takes the highlighted option, or else adds
// the tag named exactly as typed, or else creates it. The list floats over the page (a card
// clips what overflows it), and focus never leaves the input.
import type { Tag, TagSummary } from '@upshot/contract';
import { TAG_NAME_MAX } from '@upshot/contract/constants';
import { Plus, Tag as TagIcon } from 'lucide-react';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Popover, PopoverAnchor, PopoverContent } from '../../../components/ui/popover.tsx';
import { cn } from '../../../lib/utils.ts';
import { tagChoices } from '../suggestions.ts';

type Option = { kind: 'tag'; tag: TagSummary } | { kind: 'create'; name: string };

type TagComboboxProps = {
  /** The input's accessible name, e.g. 'Add tag to photo.png'. */
  label: string;
  allTags: readonly TagSummary[];
  onUpload: readonly Tag[];
  /** A change is on its way: Enter waits for it instead of sending a second one. */
  busy: boolean;
  onAdd: (tag: TagSummary) => void;
  onCreate: (name: string) => void;
};

export function TagCombobox({ label, allTags, onUpload, busy, onAdd, onCreate }: TagComboboxProps) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const anchorRef = useRef<HTMLDivElement>(null);
  const listId = useId();

  const choices = tagChoices(allTags, onUpload, text);
  const options: Option[] = [
    ...choices.suggestions.map((tag) => ({ kind: 'tag' as const, tag })),
    ...(choices.canCreate ? [{ kind: 'create' as const, name: choices.name }] : []),
  ];
  const expanded = open && options.length > 0;
  const activeOption = expanded ? options[active] : undefined;
  const optionId = (index: number) => `${listId}-option-${index}`;

  const close = () => {
    setOpen(false);
    setActive(-1);
  };

  const choose = (option: Option) => {
    if (busy) return;
    setText('');
    close();
    if (option.kind === 'tag') onAdd(option.tag);
    else onCreate(option.name);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        event.preventDefault();
        if (!expanded) {
          setOpen(true);
          setActive(event.key === 'ArrowDown' ? 0 : options.length - 1);
          return;
        }
        const last = options.length - 1;
        setActive((current) =>
          event.key === 'ArrowDown'
            ? current >= last
              ? 0
              : current + 1
            : current <= 0
              ? last
              : current - 1,
        );
        return;
      }
      case 'Enter': {
        event.preventDefault();
        if (activeOption) choose(activeOption);
        else if (choices.canAddExact && choices.exact) choose({ kind: 'tag', tag: choices.exact });
        else if (choices.canCreate) choose({ kind: 'create', name: choices.name });
        return;
      }
      case 'Escape':
        // With the list open, the popover's own Escape handling closes it.
        if (!expanded && text !== '') {
          event.preventDefault();
          setText('');
        }
        return;
    }
  };

  return (
    <Popover open={expanded} onOpenChange={(next) => !next && close()}>
      <PopoverAnchor asChild>
        <div ref={anchorRef} className="relative">
          <TagIcon
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-2.5 size-3.5 -translate-y-1/2 text-muted-foreground"
          />
          <input
            type="text"
            role="combobox"
            aria-label={label}
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={expanded ? listId : undefined}
            aria-activedescendant={activeOption ? optionId(active) : undefined}
            aria-busy={busy || undefined}
            autoComplete="off"
            spellCheck={false}
            maxLength={TAG_NAME_MAX * 2} // UTF-16 units; the name's limit counts characters
            placeholder="Add tag..."
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setOpen(true);
              setActive(-1);
            }}
            onClick={() => setOpen(true)}
            onBlur={close}
            onKeyDown={onKeyDown}
            className="flex h-8 w-full min-w-0 rounded-md border border-input bg-input/30 py-1 pr-2 pl-8 text-base shadow-xs transition-[color,box-shadow] outline-none placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:text-xs"
          />
        </div>
      </PopoverAnchor>
      <PopoverContent
        id={listId}
        role="listbox"
        aria-label="Tag suggestions"
        align="start"
        className="w-(--radix-popover-trigger-width) min-w-44"
        onOpenAutoFocus={(event) => event.preventDefault()}
        onCloseAutoFocus={(event) => event.preventDefault()}
        onInteractOutside={(event) => {
          // A click on the input itself is not a click away from the list.
          if (anchorRef.current?.contains(event.target as Node)) event.preventDefault();
        }}
      >
        {options.map((option, index) => (
          <div
            key={option.kind === 'tag' ? option.tag.id : 'create'}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            // Keep the focus in the input: the click chooses, the input stays the place to type.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(option)}
            onMouseMove={() => setActive(index)}
            className={cn(
              'flex cursor-default items-center gap-2 rounded-sm px-2 py-1.5 text-sm select-none',
              index === active && 'bg-accent text-accent-foreground',
            )}
          >
            {option.kind === 'tag' ? (
              <>
                <TagIcon aria-hidden="true" className="size-3.5 shrink-0 text-muted-foreground" />
                <span className="min-w-0 flex-1 truncate">{option.tag.name}</span>
              </>
            ) : (
              <>
                <Plus aria-hidden="true" className="size-3.5 shrink-0 text-muted-foreground" />
                <span className="min-w-0 flex-1 truncate">Create &quot;{option.name}&quot;</span>
              </>
            )}
          </div>
        ))}
      </PopoverContent>
    </Popover>
  );
}
