// Settings' last two sections, both read from the user: who they are, and their disk use.
import type { Role } from '@upshot/contract';
import { HardDrive, UserRound } from 'lucide-react';
import { FormField } from '../../../components/form-field.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { SectionCard } from '../../../components/section-card.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Progress } from '../../../components/ui/progress.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { formatBytes } from '../../../lib/format.ts';
import { useSettingsUser } from '../hooks/use-settings-user.ts';
import { storageUsage } from '../rules.ts';

export const ROLE_LABELS: Record<Role, string> = { user: 'User', admin: 'Admin' };

function ReadOnlyField({ label, value }: { label: string; value: string }) {
  return (
    <FormField label={label}>
      <Input value={value} readOnly className="text-muted-foreground" />
    </FormField>
  );
}

export function AccountInfoCard({ userId }: { userId: string }) {
  const query = useSettingsUser(userId);
  const user = query.data;

  let content;
  if (user) {
    content = (
      <>
        <div className="grid gap-4 sm:grid-cols-2">
          <ReadOnlyField label="Email" value={user.email} />
          <ReadOnlyField label="Username" value={user.username} />
        </div>
        <div className="flex items-center gap-2 text-sm">
          <span className="text-muted-foreground">Role</span>
          <Badge variant={user.role === 'admin' ? 'default' : 'secondary'}>
            {ROLE_LABELS[user.role]}
          </Badge>
        </div>
      </>
    );
  } else if (query.isPending) {
    content = <Skeleton className="h-16" />;
  } else {
    content = (
      <LoadError onRetry={() => void query.refetch()}>This section could not be loaded.</LoadError>
    );
  }

  return (
    <SectionCard
      id="account"
      title="Account Information"
      description="Ask an administrator to change these."
      icon={<UserRound aria-hidden="true" className="size-4 text-muted-foreground" />}
    >
      {content}
    </SectionCard>
  );
}

export function StorageUsage({ used, quota }: { used: number; quota: number }) {
  const { percent, bar } = storageUsage(used, quota);
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 text-sm">
        <span>
          <span className="font-medium">{formatBytes(used)}</span>
          <span className="text-muted-foreground"> of {formatBytes(quota)}</span>
        </span>
        <span className="text-muted-foreground tabular-nums">{percent} used</span>
      </div>
      <Progress
        aria-label="Storage used"
        value={bar}
        indicatorClassName={bar >= 90 ? 'bg-destructive' : 'bg-brand'}
      />
    </div>
  );
}

export function StorageUsageCard({ userId }: { userId: string }) {
  const query = useSettingsUser(userId);
  const user = query.data;

  let content;
  if (user) content = <StorageUsage used={user.diskUsed} quota={user.diskQuota} />;
  else if (query.isPending) content = <Skeleton className="h-8" />;
  else
    content = (
      <LoadError onRetry={() => void query.refetch()}>This section could not be loaded.</LoadError>
    );

  return (
    <SectionCard
      id="storage"
      title="Storage Usage"
      icon={<HardDrive aria-hidden="true" className="size-4 text-muted-foreground" />}
    >
      {content}
    </SectionCard>
  );
}
