// The Admin screen's Users tab: search and filters, the users table with each row's actions,
// Create User, and the alerts that hand on credentials the server could not email.
import type { AdminUser } from '@upshot/contract';
import { UserPlus, Users } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { CredentialsDialog } from '../../../components/credentials-dialog.tsx';
import { ListEmpty, ListLoading } from '../../../components/list-states.tsx';
import { LoadError, useLoadFailureToast } from '../../../components/load-error.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useClampPage } from '../../../lib/use-clamp-page.ts';
import { useAuth } from '../../auth/index.ts';
import { useUsersQuery } from '../api.ts';
import { useUserActions, type Created } from '../hooks/use-user-actions.ts';
import { useUserFilters } from '../hooks/use-user-filters.ts';
import { CreateUserDialog } from './create-user-dialog.tsx';
import { UserFilterBar } from './user-filters.tsx';
import { focusRowMenu, type UserRowHandlers } from './user-row-menu.tsx';
import { UsersTable } from './users-table.tsx';

type Confirmation = { kind: 'reset' | 'demote-self' | 'delete'; user: AdminUser };

/** A dialog keeps its subject while it animates closed, hence the flag beside it. */
type Shown<T> = { value: T | null; open: boolean };
const hidden = { value: null, open: false };

/**
 * For a dialog opened from a row's menu: focus goes back to that row's menu button, since the
 * menu item that opened the dialog is gone.
 */
const backToRowMenu = (user: AdminUser | undefined) => (event: Event) => {
  if (user && focusRowMenu(user.id)) event.preventDefault();
};

export function UsersTab() {
  const { user: me } = useAuth();
  const filters = useUserFilters();
  const query = useUsersQuery(filters.params);
  useLoadFailureToast(query, 'Failed to load users');
  const actions = useUserActions();

  const [createOpen, setCreateOpen] = useState(false);
  const [created, setCreated] = useState<Shown<Created>>(hidden);
  const [resetShown, setResetShown] =
    useState<Shown<{ user: AdminUser; password: string }>>(hidden);
  const [confirm, setConfirm] = useState<Shown<Confirmation>>(hidden);

  const ask = (kind: Confirmation['kind'], user: AdminUser) =>
    setConfirm({ value: { kind, user }, open: true });

  const handlers: UserRowHandlers = {
    onResetPassword: (user) => ask('reset', user),
    onDownloadUploader: (user, kind) => void actions.downloadUploader(user, kind),
    onSetActive: (user, isActive) => void actions.setActive(user, isActive),
    onSetRole: (user, role) => {
      if (user.id === me?.id && role !== 'admin') ask('demote-self', user);
      else void actions.setRole(user, role);
    },
    onDelete: (user) => ask('delete', user),
  };

  const confirmed = async () => {
    const subject = confirm.value;
    setConfirm((current) => ({ ...current, open: false }));
    if (!subject) return;
    const { kind, user } = subject;
    if (kind === 'delete') await actions.deleteUser(user);
    else if (kind === 'demote-self') await actions.setRole(user, 'user');
    else {
      const uncopied = await actions.resetPassword(user);
      if (uncopied) setResetShown({ value: { user, password: uncopied }, open: true });
    }
  };

  const { data } = query;
  const users = data?.users ?? [];
  const pageCount = useClampPage(
    data && { page: data.page, limit: data.limit, total: data.total, rows: users.length },
    filters.setPage,
  );

  let content;
  if (query.isPending) {
    content = <ListLoading />;
  } else if (!data) {
    content = (
      <LoadError onRetry={() => void query.refetch()}>The users could not be loaded.</LoadError>
    );
  } else if (users.length === 0) {
    content = (
      <ListEmpty icon={Users}>
        {filters.hasActiveFilters ? 'No users match your filters' : 'No users yet'}
      </ListEmpty>
    );
  } else {
    content = (
      <>
        <UsersTable users={users} meId={me?.id} handlers={handlers} />
        <Pagination page={data.page} pageCount={pageCount} onPageChange={filters.setPage} />
      </>
    );
  }

  const createdValue = created.value;
  const inviteFailed = createdValue?.sendInvite === true;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">
          {data ? `${data.total} ${data.total === 1 ? 'user' : 'users'}` : '\u00a0'}
        </p>
        <Button onClick={() => setCreateOpen(true)}>
          <UserPlus aria-hidden="true" />
          Create User
        </Button>
      </div>

      <UserFilterBar filters={filters} />

      {content}

      <CreateUserDialog
        open={createOpen}
        onOpenChange={setCreateOpen}
        busy={actions.isCreating}
        onCreate={actions.createUser}
        onCreated={(result) => {
          setCreateOpen(false);
          // An invitation that went out needs nothing more; anything else is handed on by hand.
          if (!(result.sendInvite && result.emailSent)) setCreated({ value: result, open: true });
        }}
      />

      <CredentialsDialog
        open={created.open}
        onOpenChange={(open) => setCreated((current) => ({ ...current, open }))}
        title={inviteFailed ? 'Send these details by hand' : 'User created'}
        description={
          inviteFailed ? (
            <>
              The invite email to {createdValue?.user.email} could not be sent. Send these details
              yourself: the temporary password is shown only once.
            </>
          ) : (
            <>
              Hand these credentials to {createdValue?.user.username}. The temporary password is
              shown only once; they choose their own at first sign-in.
            </>
          )
        }
        credentials={
          createdValue
            ? [
                { label: 'Email', value: createdValue.user.email },
                { label: 'Username', value: createdValue.user.username },
                { label: 'Temporary password', value: createdValue.tempPassword },
                ...(createdValue.inviteUrl
                  ? [{ label: 'Invite link', value: createdValue.inviteUrl }]
                  : []),
              ]
            : []
        }
        action={
          createdValue && (
            <Button
              variant="outline"
              disabled={actions.isSendingInvite}
              onClick={() =>
                void actions.sendInvite(createdValue).then((sent) => {
                  if (sent) setCreated((current) => ({ ...current, open: false }));
                })
              }
            >
              {actions.isSendingInvite
                ? 'Sending...'
                : inviteFailed
                  ? 'Try email again'
                  : 'Email these details'}
            </Button>
          )
        }
      />

      <CredentialsDialog
        open={resetShown.open}
        onOpenChange={(open) => setResetShown((current) => ({ ...current, open }))}
        title="Password reset"
        description={
          <>
            The temporary password of {resetShown.value?.user.username} could not be copied. Copy it
            here: it is shown only once.
          </>
        }
        credentials={
          resetShown.value
            ? [{ label: 'Temporary password', value: resetShown.value.password }]
            : []
        }
        onCloseAutoFocus={backToRowMenu(resetShown.value?.user)}
      />

      <ConfirmDialog
        open={confirm.open}
        onOpenChange={(open) => setConfirm((current) => ({ ...current, open }))}
        {...confirmationText(confirm.value)}
        onConfirm={() => void confirmed()}
        onCloseAutoFocus={backToRowMenu(confirm.value?.user)}
      />
    </div>
  );
}

function confirmationText(subject: Confirmation | null) {
  const name = subject?.user.username ?? '';
  switch (subject?.kind) {
    case 'delete':
      return {
        title: 'Delete user',
        description: `Delete "${name}" with all their uploads? This cannot be undone.`,
        confirmLabel: 'Delete',
        destructive: true,
      };
    case 'demote-self':
      return {
        title: 'Remove your admin role?',
        description:
          'You will lose access to the Admin screen at once, until another administrator makes you an admin again.',
        confirmLabel: 'Make me a user',
        destructive: true,
      };
    default:
      return {
        title: 'Reset password',
        description: `Reset the password of "${name}"? They are signed out everywhere and must choose a new password at their next sign-in.`,
        confirmLabel: 'Reset Password',
        destructive: false,
      };
  }
}
