import type { Upload } from '@upshot/contract';
import { Trash2, X } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { BatchTagMenus } from '../../tags/index.ts';

type SelectionBarProps = {
  /** The ticked uploads. */
  uploads: readonly Upload[];
  onDelete: () => void;
  onClear: () => void;
  disabled?: boolean;
};

/** Floats over the grid while cards are ticked, with what can be done to all of them. */
export function SelectionBar({ uploads, onDelete, onClear, disabled }: SelectionBarProps) {
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
        <Button
          variant="destructive"
          size="sm"
          className="rounded-full"
          onClick={onDelete}
          disabled={disabled}
          aria-label={`Delete ${count} selected upload(s)`}
        >
          <Trash2 aria-hidden="true" />
          Delete
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
