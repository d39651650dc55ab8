import { useSearchParams } from 'react-router';
import { RegisterScreen } from '../features/auth/index.ts';
import { RequestAccessPage } from './request-access-page.tsx';

/** /register?invite=CODE sets a password; /register alone is the Request Access screen. */
export function RegisterPage() {
  const [searchParams] = useSearchParams();
  const code = searchParams.get('invite')?.trim() ?? '';
  return code ? <RegisterScreen key={code} code={code} /> : <RequestAccessPage />;
}
