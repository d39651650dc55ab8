import type { AdminStats } from '@upshot/contract';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { formatCount } from '../../../lib/format.ts';
import { StatsSection } from './stats-section.tsx';

export function MostActiveUsersTable({
  users,
  className,
}: {
  users: AdminStats['mostActiveUsers'];
  className?: string;
}) {
  return (
    <StatsSection title="Most Active Users" level={3} className={className}>
      {users.length === 0 ? (
        <p className="text-sm text-muted-foreground">No uploads yet</p>
      ) : (
        <Table className="table-fixed">
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>Username</TableHead>
              <TableHead className="w-20 text-right">Uploads</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {users.map((user) => (
              <TableRow key={user.userId}>
                <TableCell className="truncate font-medium" title={user.username}>
                  {user.username}
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  {formatCount(user.uploadCount)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </StatsSection>
  );
}
