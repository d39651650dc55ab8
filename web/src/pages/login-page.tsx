import { Logo } from '../components/logo.tsx';
import { LoginForm } from '../features/auth/index.ts';

export function LoginPage() {
  return (
    <div className="flex min-h-svh flex-col items-center justify-center bg-[radial-gradient(ellipse_at_top,var(--color-muted),transparent_60%)] px-4 py-12">
      <div className="flex w-full max-w-sm flex-col gap-6">
        <div className="flex flex-col items-center gap-4 text-center">
          <Logo className="text-lg" />
          <div className="flex flex-col gap-1">
            <h1 className="text-2xl font-semibold tracking-tight">Welcome back</h1>
            <p className="text-sm text-muted-foreground">Sign in to your account</p>
          </div>
        </div>
        <LoginForm />
      </div>
    </div>
  );
}
