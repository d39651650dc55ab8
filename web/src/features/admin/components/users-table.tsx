import type { AdminUser } from '@upshot/contract';
import { ActionsCell, ActionsHead } from '../../../components/actions-column.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { formatBytes, formatCalendarDate, formatCount } from '../../../lib/format.ts';
import { cn } from '../../../lib/utils.ts';
import { storageUsage } from '../../users/index.ts';
import { UserRowMenu, type UserRowHandlers } from './user-row-menu.tsx';

function StatusBadge({ isActive }: { isActive: boolean }) {
  return isActive ? (
    <Badge variant="success">Active</Badge>
  ) : (
    <Badge variant="outline" className="text-muted-foreground">
      Inactive
    </Badge>
  );
}

function RoleBadge({ role }: { role: AdminUser['role'] }) {
  return role === 'admin' ? (
    <Badge variant="outline" className="border-brand/40 bg-brand/15 text-brand">
      Admin
    </Badge>
  ) : (
    <Badge variant="secondary">User</Badge>
  );
}

function Storage({ used, quota }: { used: number; quota: number }) {
  const { bar } = storageUsage(used, quota);
  return (
    <div className="flex min-w-36 flex-col gap-1">
      <span className="whitespace-nowrap tabular-nums">
        {formatBytes(used)} <span className="text-muted-foreground">of {formatBytes(quota)}</span>
      </span>
      <div aria-hidden="true" className="h-1 w-full overflow-hidden rounded-full bg-primary/15">
        <div
          className={cn('h-full rounded-full', bar >= 90 ? 'bg-destructive' : 'bg-brand')}
          style={{ width: `${bar}%` }}
        />
      </div>
    </div>
  );
}

export function UsersTable({
  users,
  meId,
  handlers,
}: {
  users: AdminUser[];
  meId: string | undefined;
  handlers: UserRowHandlers;
}) {
  return (
    <div className="overflow-hidden rounded-xl border">
      <Table aria-label="Users" className="min-w-[860px]">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead>Username</TableHead>
            <TableHead>Email</TableHead>
            <TableHead>Role</TableHead>
            <TableHead>Status</TableHead>
            <TableHead>Storage</TableHead>
            <TableHead className="text-right">Uploads</TableHead>
            <TableHead>Created</TableHead>
            <ActionsHead className="w-12" />
          </TableRow>
        </TableHeader>
        <TableBody>
          {users.map((user) => {
            const isSelf = user.id === meId;
            return (
              <TableRow key={user.id} aria-label={user.username}>
                <TableCell className="max-w-48 font-medium">
                  <div className="flex items-center gap-2">
                    <span className="truncate" title={user.username}>
                      {user.username}
                    </span>
                    {isSelf && (
                      <Badge variant="outline" className="text-muted-foreground">
                        You
                      </Badge>
                    )}
                  </div>
                </TableCell>
                <TableCell className="max-w-56 truncate" title={user.email}>
                  {user.email}
                </TableCell>
                <TableCell>
                  <RoleBadge role={user.role} />
                </TableCell>
                <TableCell>
                  <StatusBadge isActive={user.isActive} />
                </TableCell>
                <TableCell>
                  <Storage used={user.diskUsed} quota={user.diskQuota} />
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  {formatCount(user.uploadCount)}
                </TableCell>
                <TableCell className="whitespace-nowrap text-muted-foreground">
                  <time dateTime={user.createdAt}>{formatCalendarDate(user.createdAt)}</time>
                </TableCell>
                <ActionsCell className="w-12">
                  <UserRowMenu user={user} isSelf={isSelf} handlers={handlers} />
                </ActionsCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}
