import { PageHeader } from '../components/page-header.tsx';
import { useAuth } from '../features/auth/index.ts';
import { PreferencesCard } from '../features/preferences/index.ts';
import {
  AccountInfoCard,
  ApiTokenCard,
  ChangePasswordCard,
  DesktopUploadersCard,
  StorageUsageCard,
} from '../features/users/index.ts';
import { useScrollToHash } from '../lib/use-scroll-to-hash.ts';

export function SettingsPage() {
  const { user } = useAuth();
  useScrollToHash();
  // The route guard renders this screen only for a signed-in user.
  if (!user) return null;

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <PageHeader title="Settings" description="Your preferences, password and desktop uploaders" />
      <PreferencesCard username={user.username} />
      <ChangePasswordCard userId={user.id} email={user.email} />
      <DesktopUploadersCard userId={user.id} username={user.username} />
      <ApiTokenCard userId={user.id} />
      <AccountInfoCard userId={user.id} />
      <StorageUsageCard userId={user.id} />
    </div>
  );
}
