import { ComingSoon, PageHeader } from '../components/page-header.tsx';
import { useAuth } from '../features/auth/index.ts';

export function DashboardPage() {
  const { user } = useAuth();
  return (
    <>
      <PageHeader title="Dashboard" description={`Welcome back, ${user?.username ?? ''}`} />
      <ComingSoon />
    </>
  );
}
