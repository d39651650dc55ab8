import type { AccessRequest } from '@upshot/contract';
import { Badge } from '../../../components/ui/badge.tsx';

const LOOK = {
  approved: { label: 'Approved', variant: 'success' },
  rejected: { label: 'Rejected', variant: 'danger' },
  pending: { label: 'Pending', variant: 'warning' },
} as const satisfies Record<AccessRequest['status'], { label: string; variant: string }>;

/** The brief's colours: approved green, rejected red, pending yellow. */
export function RequestStatusBadge({ status }: { status: AccessRequest['status'] }) {
  const { label, variant } = LOOK[status];
  return (
    <Badge variant={variant} data-status={status}>
      {label}
    </Badge>
  );
}
