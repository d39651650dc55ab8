// What an administrator must hand on by other means (the brief's section 8): an account's email,
// temporary password and invitation link, each with a copy button. An alert dialog, so a click
// beside it cannot lose a password shown only once.
import type { ReactNode } from 'react';
import { CopyField } from './copy-field.tsx';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from './ui/alert-dialog.tsx';

export type Credential = { label: string; value: string };

type CredentialsDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  credentials: readonly Credential[];
  /** Another way out beside Done (e.g. trying the email again). */
  action?: ReactNode;
  /** Where focus goes once the dialog has closed (as in ConfirmDialog). */
  onCloseAutoFocus?: (event: Event) => void;
};

export function CredentialsDialog({
  open,
  onOpenChange,
  title,
  description,
  credentials,
  action,
  onCloseAutoFocus,
}: CredentialsDialogProps) {
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogContent className="sm:max-w-lg" onCloseAutoFocus={onCloseAutoFocus}>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <div className="flex min-w-0 flex-col gap-3">
          {credentials.map(({ label, value }) => (
            <CopyField key={label} label={label} value={value} />
          ))}
        </div>
        <AlertDialogFooter>
          {action}
          <AlertDialogAction>Done</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
