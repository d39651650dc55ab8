// A table's last column of row actions, sticky at the right edge: the actions stay in reach
// while a narrow screen scrolls the table sideways.
import type { ComponentProps } from 'react';
import { cn } from '../lib/utils.ts';
import { TableCell, TableHead } from './ui/table.tsx';

const STICKY = 'sticky right-0 bg-background text-right shadow-[-8px_0_8px_-8px_var(--border)]';
/** The row's hover tint, opaque: what scrolls under the column must not show through. */
const HOVER = '[tr:hover>&]:bg-[color-mix(in_oklab,var(--muted)_40%,var(--background))]';

/** The column's header, named for screen readers only. */
export function ActionsHead({ className }: { className?: string }) {
  return (
    <TableHead className={cn(STICKY, className)}>
      <span className="sr-only">Actions</span>
    </TableHead>
  );
}

export function ActionsCell({ className, ...props }: ComponentProps<typeof TableCell>) {
  return <TableCell className={cn(STICKY, HOVER, className)} {...props} />;
}
