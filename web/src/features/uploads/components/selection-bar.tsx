import type { Upload } from '@upshot/contract';
import { Globe, Lock, Shield, Trash2, X } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu.tsx';
import { BatchTagMenus } from '../../tags/index.ts';

type SelectionBarProps = {
  /** The ticked uploads. */
  uploads: readonly Upload[];
  onDelete: () => void;
  onSetPrivacy: (isPublic: boolean) => void;
  onClear: () => void;
  disabled?: boolean;
};

/** Make public, Make private: one menu, so the bar still fits a phone. */
function PrivacyMenu({
  count,
  onSetPrivacy,
  disabled,
}: {
  count: number;
  onSetPrivacy: (isPublic: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="secondary"
          size="sm"
          className="rounded-full"
          aria-label="Privacy"
          title="Privacy"
          disabled={disabled}
        >
          <Shield aria-hidden="true" />
          <span className="hidden sm:inline">Privacy</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent side="top" align="center" className="w-56 max-w-[calc(100vw-2rem)]">
        <DropdownMenuLabel>{`Privacy of ${count} upload(s)`}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => onSetPrivacy(true)}>
          <Globe aria-hidden="true" />
          Make public
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => onSetPrivacy(false)}>
          <Lock aria-hidden="true" />
          Make private
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** Floats over the grid while cards are ticked, with what can be done to all of them. */
export function SelectionBar({
  uploads,
  onDelete,
  onSetPrivacy,
  onClear,
  disabled,
}: SelectionBarProps) {
  const count = uploads.length;
  if (count === 0) return null;
  return (
    <div
      role="region"
      aria-label="Selected uploads"
      className="pointer-events-none fixed inset-x-0 bottom-6 z-40 flex justify-center px-4 animate-in fade-in-0 slide-in-from-bottom-4"
    >
      <div className="pointer-events-auto flex max-w-full items-center gap-1.5 rounded-full border bg-popover/95 py-1.5 pr-1.5 pl-4 text-popover-foreground shadow-xl backdrop-blur sm:gap-2">
        <span aria-live="polite" className="text-sm font-medium whitespace-nowrap">
          {count} selected
        </span>
        <span aria-hidden="true" className="mx-1 h-5 w-px shrink-0 bg-border" />
        {/* A batch that worked clears the selection (the brief's rule for every batch action). */}
        <BatchTagMenus uploads={uploads} onDone={onClear} disabled={disabled} />
        <PrivacyMenu count={count} onSetPrivacy={onSetPrivacy} disabled={disabled} />
        <Button
          variant="destructive"
          size="sm"
          className="rounded-full"
          onClick={onDelete}
          disabled={disabled}
          aria-label={`Delete ${count} selected upload(s)`}
          title="Delete"
        >
          <Trash2 aria-hidden="true" />
          {/* The icon alone on a phone, where the bar has no room for the word. */}
          <span className="hidden sm:inline">Delete</span>
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className="size-8 shrink-0 rounded-full"
          aria-label="Clear selection"
          title="Clear selection"
          onClick={onClear}
        >
          <X aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}
