// The Admin screen's Access Requests tab: every request with its status; approve and reject on
// pending ones, delete (after a confirmation) on any.
import type { AccessRequest } from '@upshot/contract';
import { Check, Inbox, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { ActionsCell, ActionsHead } from '../../../components/actions-column.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { CredentialsDialog } from '../../../components/credentials-dialog.tsx';
import { ListEmpty, ListLoading } from '../../../components/list-states.tsx';
import { LoadError, useLoadFailureToast } from '../../../components/load-error.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SegmentedControl } from '../../../components/ui/segmented-control.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useClampPage } from '../../../lib/use-clamp-page.ts';
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
  const pageCount = useClampPage(
    data && { page: data.page, limit: data.limit, total: data.total, rows: requests.length },
    setPage,
  );

  let content;
  if (query.isPending) {
    content = <ListLoading />;
  } else if (!data) {
    content = (
      <LoadError onRetry={() => void query.refetch()}>
        The access requests could not be loaded.
      </LoadError>
    );
  } else if (requests.length === 0) {
    content = (
      <ListEmpty icon={Inbox}>
        {status === '' ? 'No access requests yet' : `No ${status} requests`}
      </ListEmpty>
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
                <ActionsHead />
              </TableRow>
            </TableHeader>
            <TableBody>
              {requests.map((request) => {
                const busy = actions.isBusy(request);
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
                    <ActionsCell>
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
                    </ActionsCell>
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

      <ConfirmDialog
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
