// The Admin screen's Audit Log tab: every administrator action, newest first, a page at a time.
import { ScrollText } from 'lucide-react';
import { useState } from 'react';
import { ListEmpty, ListLoading } from '../../../components/list-states.tsx';
import { LoadError, useLoadFailureToast } from '../../../components/load-error.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { formatDate } from '../../../lib/format.ts';
import { pageCountOf } from '../../../lib/use-clamp-page.ts';
import { useAuditLogQuery } from '../api.ts';
import { actionLabel, detailLines } from '../audit-format.ts';

const PAGE_SIZE = 25;

export function AuditLogTab() {
  const [page, setPage] = useState(1);
  const query = useAuditLogQuery({ page, limit: PAGE_SIZE });
  useLoadFailureToast(query, 'Failed to load audit log');
  const { data } = query;

  if (query.isPending) return <ListLoading />;
  if (!data) {
    return (
      <LoadError onRetry={() => void query.refetch()}>The audit log could not be loaded.</LoadError>
    );
  }
  if (data.entries.length === 0) {
    return <ListEmpty icon={ScrollText}>No administrator actions yet</ListEmpty>;
  }

  const pageCount = pageCountOf(data.total, data.limit);
  return (
    <div className="flex flex-col gap-4">
      <div className="overflow-hidden rounded-xl border">
        <Table aria-label="Audit log" className="min-w-[760px]">
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>When</TableHead>
              <TableHead>Who</TableHead>
              <TableHead>Action</TableHead>
              <TableHead>Target</TableHead>
              <TableHead>Details</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {data.entries.map((entry) => {
              const lines = detailLines(entry.details);
              return (
                <TableRow key={entry.id}>
                  <TableCell className="align-top whitespace-nowrap text-muted-foreground">
                    <time dateTime={entry.createdAt}>{formatDate(entry.createdAt)}</time>
                  </TableCell>
                  <TableCell className="max-w-36 truncate align-top" title={entry.actorUsername}>
                    {entry.actorUsername}
                  </TableCell>
                  <TableCell className="align-top font-medium whitespace-nowrap">
                    {actionLabel(entry.action)}
                  </TableCell>
                  <TableCell className="max-w-64 truncate align-top" title={entry.targetLabel}>
                    {entry.targetLabel}
                  </TableCell>
                  <TableCell className="align-top text-xs text-muted-foreground">
                    {lines.length === 0
                      ? '-'
                      : lines.map((line) => (
                          <div key={line} className="whitespace-nowrap">
                            {line}
                          </div>
                        ))}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </div>
      <Pagination page={data.page} pageCount={pageCount} onPageChange={setPage} />
    </div>
  );
}
