import { LoaderCircle } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { FormError, FormField } from '../../../components/form-field.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { getApiErrorMessage } from '../../../lib/api-client.ts';
import { useLoginMutation } from '../api.ts';
import { returnPathOf } from '../return-path.ts';

export function LoginForm() {
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Shown under the fields as well as in the toast, which goes away and may be missed.
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  const returnPath = returnPathOf(location.state);
  const login = useLoginMutation({
    onSuccess: () => {
      toast.success('Welcome back!');
      void navigate(returnPath, { replace: true });
    },
    onError: (failure) => {
      const message = getApiErrorMessage(failure) ?? 'Invalid credentials';
      setError(message);
      toast.error(message);
    },
  });
  const busy = login.isPending;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    login.mutate({ email, password });
  }

  return (
    <Card className="gap-5">
      <CardHeader>
        <CardDescription>Enter your credentials to access your account</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-5" onSubmit={handleSubmit}>
          <FormField label="Email" describedBy={error ? errorId : undefined} invalid={!!error}>
            <Input
              name="email"
              type="email"
              autoComplete="email"
              required
              disabled={busy}
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          </FormField>
          <FormField label="Password" describedBy={error ? errorId : undefined} invalid={!!error}>
            <Input
              name="password"
              type="password"
              autoComplete="current-password"
              required
              disabled={busy}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </FormField>
          {error && <FormError id={errorId}>{error}</FormError>}
          <Button type="submit" className="w-full" disabled={busy}>
            {busy && <LoaderCircle aria-hidden="true" className="animate-spin" />}
            {busy ? 'Signing in...' : 'Sign in'}
          </Button>
        </form>
        <p className="mt-6 text-center text-sm text-muted-foreground">
          Don&apos;t have access?{' '}
          <Link
            to="/request-access"
            className="font-medium text-foreground underline-offset-4 hover:underline"
          >
            Request Access
          </Link>
        </p>
      </CardContent>
    </Card>
  );
}
