import type { AdminStats } from '@upshot/contract';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { formatDate } from '../../../lib/format.ts';
import { StatsSection } from './stats-section.tsx';

/**
 * The latest uploads of everyone. On a narrow screen the user and time move under the file
 * name instead of squeezing three columns; each layout is hidden from the other's readers.
 */
export function RecentActivityTable({
  activity,
  className,
}: {
  activity: AdminStats['recentActivity'];
  className?: string;
}) {
  return (
    <StatsSection title="Recent Activity" level={3} className={className}>
      {activity.length === 0 ? (
        <p className="text-sm text-muted-foreground">No uploads yet</p>
      ) : (
        <Table className="table-fixed">
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>File</TableHead>
              <TableHead className="hidden w-32 sm:table-cell">User</TableHead>
              <TableHead className="hidden w-44 sm:table-cell">Time</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {activity.map((item) => {
              const time = formatDate(item.createdAt);
              return (
                <TableRow key={item.id}>
                  <TableCell>
                    <div className="truncate font-medium" title={item.filename}>
                      {item.filename}
                    </div>
                    <div className="truncate text-xs text-muted-foreground sm:hidden">
                      {item.username} · <time dateTime={item.createdAt}>{time}</time>
                    </div>
                  </TableCell>
                  <TableCell className="hidden truncate sm:table-cell" title={item.username}>
                    {item.username}
                  </TableCell>
                  <TableCell className="hidden whitespace-nowrap text-muted-foreground sm:table-cell">
                    <time dateTime={item.createdAt}>{time}</time>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
    </StatsSection>
  );
}
