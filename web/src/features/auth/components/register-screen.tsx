// /register?invite=CODE: the invited person sets their password (and may change the username the
// invitation was made with), is signed in and lands on the dashboard.
import type { InviteInfo } from '@upshot/contract';
import { LoaderCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { FormError, FormField } from '../../../components/form-field.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { getApiErrorMessage, isApiError } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format.ts';
import { useInviteQuery, useRegisterMutation } from '../api.ts';
import { checkNewPassword } from '../password-rules.ts';
import { AuthScreen } from './auth-screen.tsx';
import { PasswordField } from './password-field.tsx';

const INVALID_INVITE = 'This invitation is invalid or has expired';

/** The server's word that the code is unknown, used or expired (not a limit, not an outage). */
const isInvalidInvite = (error: unknown) => isApiError(error) && error.code === 'invalid_invite';

export function RegisterScreen({ code }: { code: string }) {
  const invite = useInviteQuery(code);
  const [usedUp, setUsedUp] = useState(false);

  if (usedUp || (invite.isError && isInvalidInvite(invite.error))) {
    return <InvalidInvite />;
  }
  if (invite.isError) {
    return (
      <AuthScreen title="Set your password">
        <Card>
          <CardContent>
            <LoadError onRetry={() => void invite.refetch()} className="border-0 p-0">
              <p role="alert">
                {getApiErrorMessage(invite.error) ??
                  'The invitation could not be checked. Check your connection and try again.'}
              </p>
            </LoadError>
          </CardContent>
        </Card>
      </AuthScreen>
    );
  }
  return (
    <AuthScreen
      title="Set your password"
      subtitle="Choose a password to finish setting up your account."
    >
      {invite.data ? (
        <RegisterForm code={code} invite={invite.data} onInvalid={() => setUsedUp(true)} />
      ) : (
        <Card>
          <CardContent className="flex justify-center py-6">
            <LoaderCircle
              role="status"
              aria-label="Loading"
              className="size-6 animate-spin text-muted-foreground"
            />
          </CardContent>
        </Card>
      )}
    </AuthScreen>
  );
}

function InvalidInvite() {
  return (
    <AuthScreen title="Invitation not valid">
      <Card>
        <CardContent className="flex flex-col gap-4 text-center">
          <p role="alert" className="font-medium">
            {INVALID_INVITE}
          </p>
          <p className="text-sm text-muted-foreground">
            Ask the person who invited you for a new invitation, or request access again.
          </p>
          <Button asChild>
            <Link to="/request-access">Request Access</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to="/login">Back to Login</Link>
          </Button>
        </CardContent>
      </Card>
    </AuthScreen>
  );
}

function RegisterForm({
  code,
  invite,
  onInvalid,
}: {
  code: string;
  invite: InviteInfo;
  onInvalid: () => void;
}) {
  const navigate = useNavigate();
  const [username, setUsername] = useState(invite.username);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [attempted, setAttempted] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const register = useRegisterMutation({
    onSuccess: () => {
      toast.success('Welcome to Upshot!');
      void navigate('/dashboard', { replace: true });
    },
    onError: (error) => {
      const message = getApiErrorMessage(error) ?? 'Failed to set password';
      toast.error(message);
      if (isInvalidInvite(error)) onInvalid();
      else setServerError(message);
    },
  });
  const busy = register.isPending;
  const errors = attempted ? checkNewPassword(password, confirm) : {};
  const usernameError = attempted && username.trim() === '' ? 'Username is required' : undefined;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setAttempted(true);
    setServerError(null);
    const name = username.trim();
    if (name === '' || Object.keys(checkNewPassword(password, confirm)).length > 0) return;
    register.mutate({
      inviteCode: code,
      password,
      // Sent only when changed: the invitation's own name needs no second check.
      ...(name !== invite.username ? { username: name } : {}),
    });
  };

  return (
    <Card className="gap-5">
      <CardHeader>
        <CardDescription>
          Invitation for <span className="font-medium text-foreground">{invite.email}</span>, valid
          until <time dateTime={invite.expiresAt}>{formatDate(invite.expiresAt)}</time>.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate className="grid gap-5" onSubmit={submit}>
          {/* For password managers: the account is the email (one signs in by email). */}
          <input
            type="text"
            name="email"
            autoComplete="username"
            value={invite.email}
            readOnly
            hidden
          />
          <FormField label="Username" error={usernameError}>
            <Input
              autoComplete="off"
              value={username}
              maxLength={50}
              disabled={busy}
              onChange={(event) => setUsername(event.target.value)}
            />
          </FormField>
          <PasswordField
            label="Password"
            autoComplete="new-password"
            value={password}
            onChange={setPassword}
            error={errors.password}
            disabled={busy}
            autoFocus
          />
          <PasswordField
            label="Confirm password"
            autoComplete="new-password"
            value={confirm}
            onChange={setConfirm}
            error={errors.confirm}
            disabled={busy}
          />
          {serverError && <FormError>{serverError}</FormError>}
          <Button type="submit" className="w-full" disabled={busy}>
            {busy && <LoaderCircle aria-hidden="true" className="animate-spin" />}
            {busy ? 'Setting password...' : 'Set Password'}
          </Button>
        </form>
        <p className="mt-6 text-center text-sm text-muted-foreground">
          Already set up?{' '}
          <Link
            to="/login"
            className="font-medium text-foreground underline-offset-4 hover:underline"
          >
            Sign in
          </Link>
        </p>
      </CardContent>
    </Card>
  );
}
