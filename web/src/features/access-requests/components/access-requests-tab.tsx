// The Admin screen's Access Requests tab: every request with its status; approve and reject on
// pending ones, delete (after a confirmation) on any.
import type { AccessRequest } from '@upshot/contract';
import { Check, Inbox, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDeleteDialog } from '../../../components/confirm-delete-dialog.tsx';
import { CredentialsDialog } from '../../../components/credentials-dialog.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SegmentedControl } from '../../../components/ui/segmented-control.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { formatDate } from '../../../lib/format.ts';
import { cn } from '../../../lib/utils.ts';
import { useLoadFailureToast } from '../../../lib/use-load-failure-toast.ts';
import { useAccessRequestsQuery, type RequestStatusFilter } from '../api.ts';
import { useAccessRequestActions, type Handover } from '../hooks/use-access-request-actions.ts';
import { RequestStatusBadge } from './request-status-badge.tsx';

const PAGE_SIZE = 20;

const STATUS_OPTIONS = [
  { value: '', label: 'All' },
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
] as const satisfies readonly { value: RequestStatusFilter; label: string }[];

/** The sticky last column: the buttons stay in reach while a narrow screen scrolls the table. */
const ACTIONS_CELL =
  'sticky right-0 bg-background text-right shadow-[-8px_0_8px_-8px_var(--border)]';
/** The row's hover tint, opaque: what scrolls under the column must not show through. */
const ACTIONS_HOVER = '[tr:hover>&]:bg-[color-mix(in_oklab,var(--muted)_40%,var(--background))]';

export function AccessRequestsTab() {
  const [status, setStatus] = useState<RequestStatusFilter>('');
  const [page, setPage] = useState(1);
  const query = useAccessRequestsQuery({ status, page, limit: PAGE_SIZE });
  useLoadFailureToast(query, 'Failed to load access requests');
  const actions = useAccessRequestActions();
  const [toDelete, setToDelete] = useState<{ request: AccessRequest | null; open: boolean }>({
    request: null,
    open: false,
  });
  const [handover, setHandover] = useState<{ value: Handover | null; open: boolean }>({
    value: null,
    open: false,
  });

  const approve = async (request: AccessRequest) => {
    const value = await actions.approve(request);
    if (value) setHandover({ value, open: true });
  };

  const { data } = query;
  const requests = data?.requests ?? [];
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;

  let content;
  if (query.isPending) {
    content = (
      <div className="flex justify-center py-12">
        <Spinner className="size-6 text-muted-foreground" />
      </div>
    );
  } else if (!data) {
    content = (
      <div className="flex flex-col items-center gap-3 py-12 text-center text-sm text-muted-foreground">
        <p>The access requests could not be loaded.</p>
        <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
          Retry
        </Button>
      </div>
    );
  } else if (requests.length === 0) {
    content = (
      <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed py-12 text-center text-sm text-muted-foreground">
        <Inbox aria-hidden="true" className="size-6" />
        {status === '' ? 'No access requests yet' : `No ${status} requests`}
      </div>
    );
  } else {
    content = (
      <>
        <div className="overflow-hidden rounded-xl border">
          <Table aria-label="Access requests" className="min-w-[760px]">
            <TableHeader>
              <TableRow className="hover:bg-transparent">
                <TableHead>Name</TableHead>
                <TableHead>Email</TableHead>
                <TableHead>Reason</TableHead>
                <TableHead>Date</TableHead>
                <TableHead>Status</TableHead>
                <TableHead className={ACTIONS_CELL}>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {requests.map((request) => {
                const busy = actions.busyId === request.id;
                return (
                  <TableRow key={request.id}>
                    <TableCell className="max-w-40 truncate font-medium" title={request.name}>
                      {request.name}
                    </TableCell>
                    <TableCell className="max-w-52 truncate" title={request.email}>
                      {request.email}
                    </TableCell>
                    <TableCell className="max-w-72 min-w-48">
                      <p
                        className="line-clamp-2 text-muted-foreground break-words whitespace-pre-line"
                        title={request.reason}
                      >
                        {request.reason}
                      </p>
                    </TableCell>
                    <TableCell className="whitespace-nowrap text-muted-foreground">
                      <time dateTime={request.createdAt}>{formatDate(request.createdAt)}</time>
                    </TableCell>
                    <TableCell>
                      <RequestStatusBadge status={request.status} />
                    </TableCell>
                    <TableCell className={cn(ACTIONS_CELL, ACTIONS_HOVER)}>
                      <div className="flex justify-end gap-1">
                        {request.status === 'pending' && (
                          <>
                            <Button
                              size="sm"
                              variant="outline"
                              disabled={busy}
                              aria-label={`Approve request from ${request.name}`}
                              onClick={() => void approve(request)}
                            >
                              <Check aria-hidden="true" className="text-emerald-500" />
                              <span className="max-sm:hidden">Approve</span>
                            </Button>
                            <Button
                              size="sm"
                              variant="outline"
                              disabled={busy}
                              aria-label={`Reject request from ${request.name}`}
                              onClick={() => void actions.reject(request)}
                            >
                              <X aria-hidden="true" className="text-red-500" />
                              <span className="max-sm:hidden">Reject</span>
                            </Button>
                          </>
                        )}
                        <Button
                          size="icon"
                          variant="ghost"
                          className="size-8"
                          disabled={busy}
                          aria-label={`Delete request from ${request.name}`}
                          onClick={() => setToDelete({ request, open: true })}
                        >
                          <Trash2 aria-hidden="true" />
                        </Button>
                      </div>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </div>
        <Pagination page={data.page} pageCount={pageCount} onPageChange={setPage} />
      </>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SegmentedControl
          aria-label="Status"
          value={status}
          onValueChange={(next) => {
            setStatus(next);
            setPage(1);
          }}
          options={STATUS_OPTIONS}
        />
        {data && (
          <p className="text-sm text-muted-foreground">
            {data.total} {data.total === 1 ? 'request' : 'requests'}
          </p>
        )}
      </div>

      {content}

      <ConfirmDeleteDialog
        open={toDelete.open}
        onOpenChange={(open) => setToDelete((current) => ({ ...current, open }))}
        title="Delete request"
        description={`Delete the request from "${toDelete.request?.name ?? ''}" (${toDelete.request?.email ?? ''})? This cannot be undone.`}
        onConfirm={() => {
          setToDelete((current) => ({ ...current, open: false }));
          if (toDelete.request) void actions.remove(toDelete.request);
        }}
      />

      <CredentialsDialog
        open={handover.open}
        onOpenChange={(open) => setHandover((current) => ({ ...current, open }))}
        title="Send the invitation by hand"
        description={
          <>
            The account is made, but the email to {handover.value?.email} did not go out. Send them
            this invitation link: it works once, for 7 days.
          </>
        }
        credentials={
          handover.value
            ? [
                { label: 'Email', value: handover.value.email },
                { label: 'Username', value: handover.value.username },
                { label: 'Invitation link', value: handover.value.inviteUrl },
              ]
            : []
        }
      />
    </div>
  );
}
