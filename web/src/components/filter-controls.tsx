// The pieces of a filter bar (the Uploads screen, the Admin screen's Users tab): a menu that
// picks one value, the search box, and the active filters' badges that remove them.
import { ChevronDown, Search, X, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../lib/utils.ts';
import { Badge } from './ui/badge.tsx';
import { Button } from './ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from './ui/dropdown-menu.tsx';
import { Input } from './ui/input.tsx';

/**
 * The menus share a row of their own below the search box on a phone, and sit beside it at
 * one width each from `md` up, where the search box keeps room to type.
 */
export const FILTER_MENU_BUTTON = 'min-w-0 flex-1 justify-between px-3 md:w-40 md:flex-none';

/** A button that opens a single-choice menu; its accessible name is "{name}: {current}". */
export function FilterMenu<T extends string>(props: {
  name: string;
  /** The menu's heading, when it should say more than the name ('Sort by'). */
  heading?: string;
  /** Shown before the value from `sm` up; a phone has room for words only. */
  icon?: LucideIcon;
  value: T;
  /** The choices in order; the labels' order unless given. */
  options?: readonly T[];
  labels: Record<T, string>;
  onChange: (value: T) => void;
  className?: string;
}) {
  const { name, icon: Icon, value, labels, onChange } = props;
  const options = props.options ?? (Object.keys(labels) as T[]);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="outline"
          aria-label={`${name}: ${labels[value]}`}
          className={cn(FILTER_MENU_BUTTON, props.className)}
        >
          <span className="flex min-w-0 items-center gap-2">
            {Icon && <Icon aria-hidden="true" className="text-muted-foreground max-sm:hidden" />}
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

/** An active filter, named "{what}: {value}", with a button that removes it. */
export function FilterBadge({ label, onRemove }: { label: string; onRemove: () => void }) {
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

/** The row of active filters' badges, ended by Clear All. */
export function ActiveFilters({
  onClearAll,
  children,
}: {
  onClearAll: () => void;
  children: ReactNode;
}) {
  return (
    <div aria-label="Active filters" role="group" className="flex flex-wrap items-center gap-2">
      {children}
      <Button
        variant="ghost"
        size="sm"
        className="h-7 px-2 text-xs text-muted-foreground"
        onClick={onClearAll}
      >
        Clear All
      </Button>
    </div>
  );
}

/** The filter bar's search box, with its magnifier. */
export function FilterSearch({
  label,
  placeholder,
  value,
  onChange,
  maxLength,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  maxLength: number;
}) {
  return (
    <div className="relative flex-1">
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="pl-9"
        maxLength={maxLength}
      />
    </div>
  );
}
