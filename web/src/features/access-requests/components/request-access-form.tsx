// The visitors' form (/request-access, and /register without an invitation): email, full name
// and reason, all required (the brief's section 5); the server's answer is the same for any
// accepted request, so nothing here tells whether the email has an account.
import { CheckCircle2, LoaderCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { FormError, FormField } from '../../../components/form-field.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { getApiErrorMessage } from '../../../lib/api-client.ts';
import { useSubmitAccessRequestMutation } from '../api.ts';

export const REASON_MAX = 2000;
export const NAME_MAX = 100;

export function RequestAccessForm({ onSubmitted }: { onSubmitted: () => void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = useSubmitAccessRequestMutation();
  const busy = submit.isPending;

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setError(null);
    submit.mutate(
      { email: email.trim(), name: name.trim(), reason: reason.trim() },
      {
        onSuccess: () => {
          toast.success('Access request submitted successfully!');
          onSubmitted();
        },
        onError: (failure) => {
          const message = getApiErrorMessage(failure) ?? 'Failed to submit request';
          setError(message);
          toast.error(message);
        },
      },
    );
  };

  return (
    <Card className="gap-5">
      <CardHeader>
        <CardDescription>
          Tell us who you are and why you need an account. An administrator reviews every request.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-5" onSubmit={handleSubmit}>
          <FormField label="Email">
            <Input
              name="email"
              type="email"
              autoComplete="email"
              required
              maxLength={254}
              disabled={busy}
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          </FormField>
          <FormField label="Full name">
            <Input
              name="name"
              autoComplete="name"
              required
              maxLength={NAME_MAX}
              disabled={busy}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
          </FormField>
          <FormField label="Reason">
            <Textarea
              name="reason"
              required
              rows={4}
              maxLength={REASON_MAX}
              placeholder="What will you use Upshot for?"
              disabled={busy}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              className="max-h-60"
            />
          </FormField>
          {error && <FormError>{error}</FormError>}
          <Button type="submit" className="w-full" disabled={busy}>
            {busy && <LoaderCircle aria-hidden="true" className="animate-spin" />}
            {busy ? 'Submitting...' : 'Submit Request'}
          </Button>
        </form>
        <p className="mt-6 text-center text-sm text-muted-foreground">
          Already have an account?{' '}
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

/** What the visitor sees once the request is in. */
export function RequestSubmitted() {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-4 text-center">
        <CheckCircle2 aria-hidden="true" className="size-10 text-emerald-500" />
        <p className="text-sm text-muted-foreground">
          Your request will be reviewed by an administrator. You will receive an email once it has
          been approved.
        </p>
        <Button asChild className="w-full">
          <Link to="/login">Back to Login</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
