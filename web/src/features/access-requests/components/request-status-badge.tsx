import type { AccessRequest } from '@upshot/contract';
import { Badge } from '../../../components/ui/badge.tsx';
import { cn } from '../../../lib/utils.ts';

const LOOK: Record<AccessRequest['status'], { label: string; className: string }> = {
  approved: {
    label: 'Approved',
    className: 'border-emerald-500/30 bg-emerald-500/15 text-emerald-700 dark:text-emerald-400',
  },
  rejected: {
    label: 'Rejected',
    className: 'border-red-500/30 bg-red-500/15 text-red-700 dark:text-red-400',
  },
  pending: {
    label: 'Pending',
    className: 'border-amber-500/30 bg-amber-500/15 text-amber-700 dark:text-amber-400',
  },
};

/** The brief's colours: approved green, rejected red, pending yellow. */
export function RequestStatusBadge({ status }: { status: AccessRequest['status'] }) {
  const { label, className } = LOOK[status];
  return (
    <Badge variant="outline" data-status={status} className={cn(className)}>
      {label}
    </Badge>
  );
}
