import { LoaderCircle } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
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
          <div className="grid gap-2">
            <Label htmlFor="email">Email</Label>
            <Input
              id="email"
              name="email"
              type="email"
              autoComplete="email"
              required
              disabled={busy}
              aria-describedby={error ? errorId : undefined}
              aria-invalid={error ? true : undefined}
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="password">Password</Label>
            <Input
              id="password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              disabled={busy}
              aria-describedby={error ? errorId : undefined}
              aria-invalid={error ? true : undefined}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </div>
          {error && (
            <p id={errorId} role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
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
