import { useState } from 'react';
import { AuthScreen } from '../features/auth/index.ts';
import { RequestAccessForm, RequestSubmitted } from '../features/access-requests/index.ts';

/** Served at /request-access, and at /register without an invitation. */
export function RequestAccessPage() {
  const [submitted, setSubmitted] = useState(false);
  return submitted ? (
    <AuthScreen title="Request Submitted">
      <RequestSubmitted />
    </AuthScreen>
  ) : (
    <AuthScreen title="Request Access" subtitle="Upshot is invitation only">
      <RequestAccessForm onSubmitted={() => setSubmitted(true)} />
    </AuthScreen>
  );
}
