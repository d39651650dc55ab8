// The Profile screen: who the user is, since when, their totals, and the way to Settings.
import type { User, UserStats } from '@upshot/contract';
import { ChevronRight, Eye, FileUp, HardDrive, Settings, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { SectionCard } from '../../../components/section-card.tsx';
import { Avatar, AvatarFallback } from '../../../components/ui/avatar.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { formatBytes, formatCalendarDate, formatCount } from '../../../lib/format.ts';
import { getInitials } from '../../auth/index.ts';
import { ROLE_LABELS } from './account-cards.tsx';

export const SETTINGS_LINKS = [
  {
    to: '/settings#preferences',
    label: 'Preferences',
    hint: 'Default privacy, notifications, theme and page size',
  },
  { to: '/settings#password', label: 'Change Password', hint: 'Set a new password' },
  {
    to: '/settings#desktop',
    label: 'ShareX and scripts',
    hint: 'Upload from your desktop',
  },
  { to: '/settings#api-token', label: 'API Token', hint: 'Copy or regenerate your token' },
] as const;

function ProfileHeader({ user }: { user: User }) {
  return (
    <Card className="flex-row flex-wrap items-center gap-3 px-6 sm:gap-6">
      <Avatar className="size-12 border sm:size-16">
        <AvatarFallback className="bg-brand/20 text-lg font-medium text-brand sm:text-xl">
          {getInitials(user)}
        </AvatarFallback>
      </Avatar>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
          <h2 className="min-w-0 text-xl font-semibold [overflow-wrap:anywhere]">
            {user.username}
          </h2>
          <Badge variant={user.role === 'admin' ? 'default' : 'secondary'}>
            {ROLE_LABELS[user.role]}
          </Badge>
        </div>
        <p className="text-sm text-muted-foreground [overflow-wrap:anywhere]">{user.email}</p>
        <p className="text-sm text-muted-foreground">
          Member since <time dateTime={user.createdAt}>{formatCalendarDate(user.createdAt)}</time>
        </p>
      </div>
      <Button asChild variant="outline" className="w-full sm:w-auto">
        <Link to="/settings">
          <Settings aria-hidden="true" />
          Settings
        </Link>
      </Button>
    </Card>
  );
}

type Total = { label: string; value: string | null; hint?: string; icon: LucideIcon };

function Totals({ totals }: { totals: Total[] }) {
  return (
    // Two a row on a phone, the last (storage, the widest figure) on a row of its own.
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4">
      {totals.map(({ label, value, hint, icon: Icon }) => (
        <div
          key={label}
          className="flex min-w-0 flex-col gap-1.5 rounded-lg border bg-background/40 p-3 last:col-span-2 sm:p-4 sm:last:col-span-1"
        >
          <dt className="flex items-center justify-between gap-2 text-xs font-medium text-muted-foreground sm:text-sm">
            <span className="truncate">{label}</span>
            <Icon aria-hidden="true" className="hidden size-4 shrink-0 sm:block" />
          </dt>
          <dd className="truncate text-xl font-semibold tabular-nums sm:text-2xl">
            {value ?? <Skeleton className="h-7 w-12" />}
          </dd>
          {hint && <dd className="truncate text-xs text-muted-foreground">{hint}</dd>}
        </div>
      ))}
    </dl>
  );
}

type ProfileOverviewProps = {
  user: User;
  /** The user's statistics; undefined while loading, null when they could not be loaded. */
  stats: UserStats | null | undefined;
};

export function ProfileOverview({ user, stats }: ProfileOverviewProps) {
  const count = (value: number | undefined) =>
    stats === null ? '\u2014' : value === undefined ? null : formatCount(value);
  return (
    <div className="flex flex-col gap-6">
      <ProfileHeader user={user} />
      <SectionCard title="Your totals">
        <Totals
          totals={[
            { label: 'Uploads', value: count(stats?.totalUploads), icon: FileUp },
            { label: 'Views', value: count(stats?.totalViews), icon: Eye },
            {
              label: 'Storage used',
              value: formatBytes(user.diskUsed),
              hint: `of ${formatBytes(user.diskQuota)}`,
              icon: HardDrive,
            },
          ]}
        />
      </SectionCard>
      <SectionCard title="Account settings">
        <nav aria-label="Settings">
          <ul className="-mx-2 flex flex-col">
            {SETTINGS_LINKS.map(({ to, label, hint }) => (
              <li key={to}>
                <Link
                  to={to}
                  className="flex items-center gap-3 rounded-md px-2 py-2.5 transition-colors hover:bg-accent/50"
                >
                  <span className="flex min-w-0 flex-1 flex-col">
                    <span className="text-sm font-medium">{label}</span>
                    <span className="text-sm text-muted-foreground">{hint}</span>
                  </span>
                  <ChevronRight aria-hidden="true" className="size-4 text-muted-foreground" />
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </SectionCard>
    </div>
  );
}
