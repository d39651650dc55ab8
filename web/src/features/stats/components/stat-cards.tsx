import type { AdminStats, UserStats } from '@upshot/contract';
import { Eye, FileUp, Files, HardDrive, Image, Users, type LucideIcon } from 'lucide-react';
import { formatBytes, formatCount } from '../../../lib/format.ts';
import { cn } from '../../../lib/utils.ts';
import { countOfType } from '../breakdown.ts';

type Stat = { label: string; value: string; icon: LucideIcon; hint?: string };

function StatCard({ label, value, icon: Icon, hint }: Stat) {
  return (
    <div className="flex min-w-0 flex-col gap-1.5 rounded-xl border bg-card p-3 text-card-foreground shadow-sm sm:gap-2 sm:p-5">
      <dt className="flex items-center justify-between gap-2 text-xs font-medium text-muted-foreground sm:text-sm">
        <span className="truncate">{label}</span>
        <Icon aria-hidden="true" className="hidden size-4 shrink-0 sm:block" />
      </dt>
      <dd className="truncate text-2xl font-semibold tracking-tight tabular-nums sm:text-3xl">
        {value}
      </dd>
      {hint && <dd className="truncate text-xs text-muted-foreground">{hint}</dd>}
    </div>
  );
}

function StatGrid({ stats, className }: { stats: Stat[]; className?: string }) {
  return (
    <dl className={cn('grid gap-3 sm:gap-4', className)}>
      {stats.map((stat) => (
        <StatCard key={stat.label} {...stat} />
      ))}
    </dl>
  );
}

/** The brief's three cards: the user's uploads, their views, and how many are images. */
export function UserStatCards({ stats }: { stats: UserStats }) {
  return (
    <StatGrid
      className="grid-cols-3"
      stats={[
        {
          label: 'Total Uploads',
          value: formatCount(stats.totalUploads),
          icon: FileUp,
          hint: stats.totalSize > 0 ? `${formatBytes(stats.totalSize)} stored` : undefined,
        },
        { label: 'Total Views', value: formatCount(stats.totalViews), icon: Eye },
        {
          label: 'Images',
          value: formatCount(countOfType(stats.fileTypeBreakdown, 'images')),
          icon: Image,
        },
      ]}
    />
  );
}

/** The admin's four cards about the whole instance. */
export function AdminStatCards({ stats }: { stats: AdminStats }) {
  return (
    <StatGrid
      className="grid-cols-2 lg:grid-cols-4"
      stats={[
        { label: 'Total Users', value: formatCount(stats.totalUsers), icon: Users },
        { label: 'System Uploads', value: formatCount(stats.totalUploads), icon: Files },
        { label: 'System Views', value: formatCount(stats.totalViews), icon: Eye },
        { label: 'Storage Used', value: formatBytes(stats.totalStorage), icon: HardDrive },
      ]}
    />
  );
}
