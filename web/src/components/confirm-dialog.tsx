// Asks before an action that cannot be taken back (the brief: deletes, password resets, a new
// API token). Destructive, with a Delete button, unless told otherwise.
import type { ReactNode } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from './ui/alert-dialog.tsx';

type ConfirmDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** The question, e.g. the brief's 'Delete "{filename}"? This cannot be undone.' */
  description: ReactNode;
  /** The confirming button's words; 'Delete' unless given. */
  confirmLabel?: string;
  destructive?: boolean;
  onConfirm: () => void;
  /**
   * Where focus goes once the dialog has closed. By default it returns to what was focused
   * when it opened; a dialog opened from a menu item (gone with its menu) names where to go
   * instead, and calls `event.preventDefault()` when it has moved focus itself.
   */
  onCloseAutoFocus?: (event: Event) => void;
};

export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel = 'Delete',
  destructive = true,
  onConfirm,
  onCloseAutoFocus,
}: ConfirmDialogProps) {
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription className="break-words">{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction variant={destructive ? 'destructive' : 'default'} onClick={onConfirm}>
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
