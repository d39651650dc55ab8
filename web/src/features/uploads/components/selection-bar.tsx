import { Trash2, X } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';

type SelectionBarProps = {
  count: number;
  onDelete: () => void;
  onClear: () => void;
  disabled?: boolean;
};

/** Floats over the grid while cards are ticked, with what can be done to all of them. */
export function SelectionBar({ count, onDelete, onClear, disabled }: SelectionBarProps) {
  if (count === 0) return null;
  return (
    <div
      role="region"
      aria-label="Selected uploads"
      className="fixed inset-x-0 bottom-6 z-40 flex justify-center px-4 animate-in fade-in-0 slide-in-from-bottom-4"
    >
      <div className="flex items-center gap-2 rounded-full border bg-popover/95 py-1.5 pr-1.5 pl-4 text-popover-foreground shadow-xl backdrop-blur">
        <span aria-live="polite" className="text-sm font-medium whitespace-nowrap">
          {count} selected
        </span>
        <span aria-hidden="true" className="mx-1 h-5 w-px bg-border" />
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
          className="size-8 rounded-full"
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
