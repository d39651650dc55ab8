// Create User (the brief's Admin screen): email, username, role (user by default) and whether to
// email an invitation. The dialog stays open with the reason when the server refuses.
import type { Role } from '@upshot/contract';
import { LoaderCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { FormError, FormField } from '../../../components/form-field.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { SegmentedControl } from '../../../components/ui/segmented-control.tsx';
import type { Created } from '../hooks/use-user-actions.ts';

const ROLE_OPTIONS = [
  { value: 'user', label: 'User' },
  { value: 'admin', label: 'Admin' },
] as const;

type CreateUserDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  busy: boolean;
  onCreate: (input: {
    email: string;
    username: string;
    role: Role;
    sendInvite: boolean;
  }) => Promise<Created | string>;
  onCreated: (created: Created) => void;
};

export function CreateUserDialog({ open, onOpenChange, ...props }: CreateUserDialogProps) {
  return (
    <Dialog open={open} onOpenChange={(next) => (props.busy ? undefined : onOpenChange(next))}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create User</DialogTitle>
          <DialogDescription>
            The user gets a temporary password and chooses their own at first sign-in.
          </DialogDescription>
        </DialogHeader>
        {/* Mounted with the dialog: every opening starts from an empty form. */}
        {open && <CreateUserForm onCancel={() => onOpenChange(false)} {...props} />}
      </DialogContent>
    </Dialog>
  );
}

function CreateUserForm({
  busy,
  onCreate,
  onCreated,
  onCancel,
}: Omit<CreateUserDialogProps, 'open' | 'onOpenChange'> & { onCancel: () => void }) {
  const [email, setEmail] = useState('');
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<Role>('user');
  const [sendInvite, setSendInvite] = useState(true);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setError(null);
    const result = await onCreate({
      email: email.trim(),
      username: username.trim(),
      role,
      sendInvite,
    });
    if (typeof result === 'string') setError(result);
    else onCreated(result);
  };

  return (
    <form className="grid gap-5" onSubmit={(event) => void submit(event)}>
      <FormField label="Email">
        <Input
          type="email"
          autoComplete="off"
          required
          maxLength={254}
          disabled={busy}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </FormField>
      <FormField label="Username">
        <Input
          autoComplete="off"
          required
          maxLength={50}
          disabled={busy}
          value={username}
          onChange={(event) => setUsername(event.target.value)}
        />
      </FormField>
      <FormField label="Role">
        <SegmentedControl
          value={role}
          onValueChange={setRole}
          options={ROLE_OPTIONS}
          disabled={busy}
        />
      </FormField>
      <FormField
        layout="check"
        label="Send invite email"
        hint="Emails a link to set a password, valid for 7 days. Otherwise you hand on the temporary password yourself."
      >
        <Checkbox
          checked={sendInvite}
          disabled={busy}
          onCheckedChange={(checked) => setSendInvite(checked === true)}
        />
      </FormField>
      {error && <FormError>{error}</FormError>}
      <DialogFooter>
        <Button type="button" variant="outline" disabled={busy} onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy && <LoaderCircle aria-hidden="true" className="animate-spin" />}
          {busy ? 'Creating...' : 'Create User'}
        </Button>
      </DialogFooter>
    </form>
  );
}
