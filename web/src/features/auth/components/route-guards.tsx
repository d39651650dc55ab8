import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import { FullScreenSpinner } from '../../../components/ui/spinner.tsx';
import { useAuth } from '../auth-context.ts';

type GuardProps = { children?: ReactNode };

/** Signed-in users only: waits for the session, sends everyone else to /login. */
export function ProtectedRoute({ children }: GuardProps) {
  const { user, isLoading } = useAuth();
  if (isLoading) return <FullScreenSpinner />;
  if (!user) return <Navigate to="/login" replace />;
  return children ?? <Outlet />;
}

/** Admins only; anyone else signed in lands on the dashboard. */
export function AdminRoute({ children }: GuardProps) {
  const { user, isLoading } = useAuth();
  if (isLoading) return <FullScreenSpinner />;
  if (!user) return <Navigate to="/login" replace />;
  if (user.role !== 'admin') return <Navigate to="/dashboard" replace />;
  return children ?? <Outlet />;
}

/** Screens for signed-out visitors (sign-in): a signed-in user goes straight to the dashboard. */
export function GuestRoute({ children }: GuardProps) {
  const { user, isLoading } = useAuth();
  if (isLoading) return <FullScreenSpinner />;
  if (user) return <Navigate to="/dashboard" replace />;
  return children ?? <Outlet />;
}
