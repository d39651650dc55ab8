// The auth feature's public surface; other modules import from here, never from its internals.
export {
  useChangePasswordMutation,
  useLoginMutation,
  useLogoutMutation,
  useRefreshSession,
} from './api.ts';
export { useAuth, type AuthContextValue } from './auth-context.ts';
export { AuthProvider } from './auth-provider.tsx';
export { AuthScreen } from './components/auth-screen.tsx';
export { AdminRoute, GuestRoute, ProtectedRoute } from './components/route-guards.tsx';
export { LoginForm } from './components/login-form.tsx';
export { PasswordField } from './components/password-field.tsx';
export { RegisterScreen } from './components/register-screen.tsx';
export { UserMenu } from './components/user-menu.tsx';
export { getInitials } from './initials.ts';
export { checkPasswordChange, type PasswordChangeErrors } from './password-rules.ts';
