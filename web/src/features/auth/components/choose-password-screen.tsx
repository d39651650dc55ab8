// The gate in front of every protected screen while the user holds a temporary password (made by
// an administrator, or reset by one): the server refuses everything else until it is replaced.
// Once it is, the screen that was asked for shows, at the same address.
import type { User } from '@upshot/contract';
import { LoaderCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { FormError } from '../../../components/form-field.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent } from '../../../components/ui/card.tsx';
import { getApiErrorMessage } from '../../../lib/api-client.ts';
import { useChooseOwnPasswordMutation, useLogoutMutation } from '../api.ts';
import { useAuth } from '../auth-context.ts';
import { checkPasswordChange } from '../password-rules.ts';
import { AuthScreen } from './auth-screen.tsx';
import { PasswordField } from './password-field.tsx';

export function ChoosePasswordScreen() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <AuthScreen
      title="Choose your password"
      subtitle="You signed in with a temporary password. Choose your own to continue."
    >
      <ChoosePasswordForm key={user.id} user={user} />
    </AuthScreen>
  );
}

function ChoosePasswordForm({ user }: { user: User }) {
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  // The checks show after the first attempt to send, then follow the typing.
  const [attempted, setAttempted] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const choose = useChooseOwnPasswordMutation(user);
  const logout = useLogoutMutation({
    onSuccess: () => toast.success('Logged out successfully'),
    onError: () => toast.error('Failed to logout'),
  });
  const busy = choose.isPending || logout.isPending;
  const errors = attempted ? checkPasswordChange({ current, password, confirm }) : {};

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setAttempted(true);
    setServerError(null);
    if (Object.keys(checkPasswordChange({ current, password, confirm })).length > 0) return;
    choose.mutate(
      { currentPassword: current, newPassword: password },
      {
        onSuccess: () => toast.success('Password changed successfully'),
        onError: (error) => {
          const message = getApiErrorMessage(error) ?? 'Failed to change password';
          setServerError(message);
          toast.error(message);
        },
      },
    );
  };

  return (
    <Card>
      <CardContent>
        <form noValidate className="grid gap-5" onSubmit={submit}>
          {/* For password managers: which account the new password belongs to. */}
          <input
            type="text"
            name="username"
            autoComplete="username"
            value={user.email}
            readOnly
            hidden
          />
          <PasswordField
            label="Temporary password"
            autoComplete="current-password"
            value={current}
            onChange={setCurrent}
            error={errors.current}
            disabled={busy}
            autoFocus
          />
          <PasswordField
            label="New password"
            autoComplete="new-password"
            value={password}
            onChange={setPassword}
            error={errors.password}
            disabled={busy}
          />
          <PasswordField
            label="Confirm new password"
            autoComplete="new-password"
            value={confirm}
            onChange={setConfirm}
            error={errors.confirm}
            disabled={busy}
          />
          {serverError && <FormError>{serverError}</FormError>}
          <Button type="submit" className="w-full" disabled={busy}>
            {choose.isPending && <LoaderCircle aria-hidden="true" className="animate-spin" />}
            {choose.isPending ? 'Saving...' : 'Set Password'}
          </Button>
        </form>
        <p className="mt-6 text-center text-sm text-muted-foreground">
          Signed in as <span className="font-medium text-foreground">{user.email}</span>.{' '}
          <button
            type="button"
            className="font-medium text-foreground underline-offset-4 hover:underline disabled:opacity-50"
            disabled={busy}
            onClick={() => logout.mutate()}
          >
            Sign out
          </button>
        </p>
      </CardContent>
    </Card>
  );
}
