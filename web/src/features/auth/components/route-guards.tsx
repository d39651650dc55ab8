import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FullScreenSpinner } from '../../../components/ui/spinner.tsx';
import { useAuth } from '../auth-context.ts';
import { returnPathOf, type ReturnState } from '../return-path.ts';
import { SessionUnavailable } from './session-unavailable.tsx';

type GuardProps = { children?: ReactNode };

// Its own chunk: few users ever see it, and the sign-in screen's first load stays small.
const ChoosePasswordScreen = lazy(async () => ({
  default: (await import('./choose-password-screen.tsx')).ChoosePasswordScreen,
}));

/** A user holding a temporary password chooses their own before any protected screen shows. */
function PasswordGate() {
  return (
    <Suspense fallback={<FullScreenSpinner />}>
      <ChoosePasswordScreen />
    </Suspense>
  );
}

/** Sends a signed-out visitor to /login, remembering the page unless they chose to log out. */
function ToLogin() {
  const { sessionEnd } = useAuth();
  const { pathname, search, hash } = useLocation();
  const state: ReturnState | undefined =
    sessionEnd === 'logout' ? undefined : { from: `${pathname}${search}${hash}` };
  return <Navigate to="/login" replace state={state} />;
}

/** Signed-in users only: waits for the session, sends everyone else to /login. */
export function ProtectedRoute({ children }: GuardProps) {
  const { user, isLoading, isUnavailable, retry } = useAuth();
  if (isLoading) return <FullScreenSpinner />;
  if (isUnavailable) return <SessionUnavailable onRetry={retry} />;
  if (!user) return <ToLogin />;
  if (user.mustChangePassword) return <PasswordGate />;
  return children ?? <Outlet />;
}

/** Admins only; anyone else signed in lands on the dashboard. */
export function AdminRoute({ children }: GuardProps) {
  const { user, isLoading, isUnavailable, retry } = useAuth();
  if (isLoading) return <FullScreenSpinner />;
  if (isUnavailable) return <SessionUnavailable onRetry={retry} />;
  if (!user) return <ToLogin />;
  if (user.mustChangePassword) return <PasswordGate />;
  if (user.role !== 'admin') return <Navigate to="/dashboard" replace />;
  return children ?? <Outlet />;
}

/** Screens for signed-out visitors (sign-in): a signed-in user goes on to where they were headed. */
export function GuestRoute({ children }: GuardProps) {
  const { user, isLoading, isUnavailable, retry } = useAuth();
  const location = useLocation();
  if (isLoading) return <FullScreenSpinner />;
  if (isUnavailable) return <SessionUnavailable onRetry={retry} />;
  if (user) return <Navigate to={returnPathOf(location.state)} replace />;
  return children ?? <Outlet />;
}
