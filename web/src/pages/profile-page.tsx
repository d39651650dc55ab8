import { PageHeader } from '../components/page-header.tsx';
import { useAuth } from '../features/auth/index.ts';
import { useUserStats } from '../features/stats/index.ts';
import { ProfileOverview, useUserQuery } from '../features/users/index.ts';

export function ProfilePage() {
  const { user } = useAuth();
  // The route guard renders this screen only for a signed-in user.
  const details = useUserQuery(user?.id ?? '');
  const stats = useUserStats();
  if (!user) return null;

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <PageHeader title="Profile" description="Your account at a glance" />
      {/* The session's user until the fresh one (with today's disk use) arrives. */}
      <ProfileOverview
        user={details.data ?? user}
        stats={stats.data ?? (stats.isError ? null : undefined)}
      />
    </div>
  );
}
