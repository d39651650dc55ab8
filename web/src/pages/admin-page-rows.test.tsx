// The Users tab's row menus: each action, its confirmation and where focus goes after it, and
// the uploader downloads.
import type { AdminUser } from '@upshot/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ada, bob, carol, me, renderAdmin, usersPage } from '../test/admin.ts';
import { makeAdminUser } from '../test/fixtures.ts';
import { file, noContent, refuse, serverError, type Answers } from '../test/mock-api.ts';
import { rowAction, userRow as row } from '../test/queries.ts';

const path = (request: Request) => new URL(request.url).pathname;

/** Answers the list as it stands after the PATCHes and DELETEs the test has sent. */
function changingUsers(initial: AdminUser[] = [ada, bob, carol]) {
  let users = initial;
  return {
    listUsers: ({ query }) => {
      const page = Number(query.get('page') ?? 1);
      const limit = Number(query.get('limit') ?? 20);
      return usersPage(users.slice((page - 1) * limit, page * limit), {
        total: users.length,
        page,
        limit,
      });
    },
    updateUser: ({ params, body }) => {
      const changed = { ...users.find((u) => u.id === params.id)!, ...body };
      users = users.map((u) => (u.id === params.id ? changed : u));
      return changed;
    },
    deleteUser: ({ params }) => {
      users = users.filter((u) => u.id !== params.id);
      return noContent();
    },
  } satisfies Answers;
}

describe('Admin page: row actions', () => {
  it('resets a password after a confirmation and copies the temporary one', async () => {
    const { user, sent } = renderAdmin({ resetPassword: { tempPassword: 'Temp-Pass-1' } });
    await rowAction(user, 'bob', 'Reset password');

    const confirm = await screen.findByRole('alertdialog', { name: 'Reset password' });
    expect(confirm).toHaveTextContent('Reset the password of "bob"?');
    expect(sent('resetPassword')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Reset Password' }));

    expect(await screen.findByText('Password reset and copied to clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe('Temp-Pass-1');
    expect(sent('resetPassword').map(path)).toEqual(['/api/users/u2/reset-password']);
  });

  it('shows the temporary password when the clipboard refuses it', async () => {
    const { user } = renderAdmin({ resetPassword: { tempPassword: 'Temp-Pass-1' } });
    await row('bob');
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValueOnce(new Error('denied'));
    await rowAction(user, 'bob', 'Reset password');
    await user.click(await screen.findByRole('button', { name: 'Reset Password' }));
    const alert = await screen.findByRole('alertdialog', { name: 'Password reset' });
    expect(within(alert).getByLabelText('Temporary password')).toHaveValue('Temp-Pass-1');
  });

  it("says 'Failed to reset password' when the reset fails, and nothing on cancel", async () => {
    const { user, sent } = renderAdmin({ resetPassword: serverError() });
    await rowAction(user, 'bob', 'Reset password');
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(sent('resetPassword')).toHaveLength(0);

    await rowAction(user, 'bob', 'Reset password');
    await user.click(await screen.findByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Failed to reset password')).toBeInTheDocument();
  });

  it('deletes a user after a confirmation', async () => {
    const { user, sent } = renderAdmin(changingUsers());
    await rowAction(user, 'bob', 'Delete');
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete user' });
    expect(confirm).toHaveTextContent(
      'Delete "bob" with all their uploads? This cannot be undone.',
    );
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('User deleted successfully')).toBeInTheDocument();
    expect(sent('deleteUser').map(path)).toEqual(['/api/users/u2']);
    await waitFor(() => expect(screen.queryByRole('row', { name: 'bob' })).not.toBeInTheDocument());
  });

  it("says 'Failed to delete user', with the server's reason", async () => {
    const { user } = renderAdmin({
      deleteUser: refuse(409, 'Upshot needs at least one active administrator'),
    });
    await rowAction(user, 'bob', 'Delete');
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete user')).toBeInTheDocument();
    expect(screen.getByText('Upshot needs at least one active administrator')).toBeInTheDocument();
  });

  it('offers neither reset password, delete nor deactivate on your own row', async () => {
    const { user } = renderAdmin();
    await user.click(within(await row('ada')).getByRole('button', { name: 'Actions for ada' }));
    // A reset signs the user out everywhere: the admin's own session too.
    for (const item of ['Reset password', 'Delete', 'Deactivate']) {
      expect(await screen.findByRole('menuitem', { name: item })).toHaveAttribute(
        'aria-disabled',
        'true',
      );
    }
    expect(screen.getByRole('menuitem', { name: 'Make user' })).not.toHaveAttribute(
      'aria-disabled',
    );
  });

  it('deactivates and activates a user', async () => {
    const { user, sent, bodies } = renderAdmin(changingUsers());
    await rowAction(user, 'bob', 'Deactivate');
    expect(await screen.findByText('bob deactivated')).toBeInTheDocument();
    await waitFor(async () =>
      expect(within(await row('bob')).getByText('Inactive')).toBeInTheDocument(),
    );

    await rowAction(user, 'carol', 'Activate');
    expect(await screen.findByText('carol activated')).toBeInTheDocument();
    expect(sent('updateUser').map(path)).toEqual(['/api/users/u2', '/api/users/u3']);
    expect(await bodies('updateUser')).toEqual([{ isActive: false }, { isActive: true }]);
  });

  it('makes a user an admin at once', async () => {
    const { user, bodies } = renderAdmin(changingUsers());
    await rowAction(user, 'bob', 'Make admin');
    expect(await screen.findByText('bob is now an admin')).toBeInTheDocument();
    await waitFor(async () => expect(within(await row('bob')).getByText('Admin')).toBeVisible());
    expect(await bodies('updateUser')).toEqual([{ role: 'admin' }]);
  });

  it('asks before an admin demotes themself, then leaves the Admin screen', async () => {
    let demoted = false;
    const users = changingUsers();
    const { user, router, sent } = renderAdmin({
      ...users,
      me: () => ({ ...me, role: demoted ? 'user' : 'admin' }),
      updateUser: (call) => {
        demoted = true;
        return users.updateUser(call);
      },
    });
    await rowAction(user, 'ada', 'Make user');

    const confirm = await screen.findByRole('alertdialog', { name: 'Remove your admin role?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(sent('updateUser')).toHaveLength(0);

    await rowAction(user, 'ada', 'Make user');
    await user.click(await screen.findByRole('button', { name: 'Make me a user' }));
    expect(await screen.findByText('ada is now a user')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(sent('updateUser').map(path)).toEqual(['/api/users/admin1']);
  });

  it("shows the server's refusal to leave Upshot without an active administrator", async () => {
    const { user } = renderAdmin({
      updateUser: refuse(409, 'Upshot needs at least one active administrator'),
    });
    await rowAction(user, 'ada', 'Make user');
    await user.click(await screen.findByRole('button', { name: 'Make me a user' }));
    expect(await screen.findByText('Failed to change role')).toBeInTheDocument();
    expect(screen.getByText('Upshot needs at least one active administrator')).toBeInTheDocument();
  });
});

describe('Admin page: uploader downloads', () => {
  let saved: string[];

  beforeEach(() => {
    saved = [];
    Object.defineProperty(URL, 'createObjectURL', {
      configurable: true,
      value: vi.fn(() => 'blob:x'),
    });
    Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: vi.fn() });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download);
    });
  });

  it("downloads a user's ShareX config, bash and PowerShell scripts", async () => {
    const { user, sent } = renderAdmin({
      userSharexConfig: file('upshot-bob.sxcu', 'application/json', '{"Version":"17"}'),
      userBashScript: file('upshot-bob.sh', 'text/x-shellscript', '#!'),
      userPowershellScript: file('upshot-bob.ps1', 'text/plain', 'param()'),
    });
    await rowAction(user, 'bob', 'Download ShareX config');
    await waitFor(() => expect(saved).toEqual(['upshot-bob.sxcu']));
    await rowAction(user, 'bob', 'Download bash script');
    await rowAction(user, 'bob', 'Download PowerShell script');
    await waitFor(() =>
      expect(saved).toEqual(['upshot-bob.sxcu', 'upshot-bob.sh', 'upshot-bob.ps1']),
    );
    const [request] = sent('userSharexConfig');
    expect(path(request!)).toBe('/api/users/u2/sharex-config');
    expect(request!.headers.get('Authorization')).toBe('Bearer tok');
  });

  it("says 'Failed to download config' when a download fails", async () => {
    const { user } = renderAdmin({ userBashScript: serverError() });
    await rowAction(user, 'bob', 'Download bash script');
    expect(await screen.findByText('Failed to download config')).toBeInTheDocument();
    expect(saved).toEqual([]);
  });
});

describe('Admin page: focus after a row action', () => {
  const menuButton = async (username: string) =>
    within(await row(username)).getByRole('button', { name: `Actions for ${username}` });
  const closed = () =>
    waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());

  it("returns to the row's menu button when a confirmation is cancelled or confirmed", async () => {
    const { user } = renderAdmin({ resetPassword: { tempPassword: 'Temp-Pass-1' } });
    await rowAction(user, 'bob', 'Reset password');
    const confirm = await screen.findByRole('alertdialog', { name: 'Reset password' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await closed();
    expect(await menuButton('bob')).toHaveFocus();

    await rowAction(user, 'carol', 'Reset password');
    await user.click(await screen.findByRole('button', { name: 'Reset Password' }));
    await closed();
    expect(await menuButton('carol')).toHaveFocus();
  });

  it('returns to it when the temporary password alert is closed', async () => {
    const { user } = renderAdmin({ resetPassword: { tempPassword: 'Temp-Pass-1' } });
    await row('bob');
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValueOnce(new Error('denied'));
    await rowAction(user, 'bob', 'Reset password');
    await user.click(await screen.findByRole('button', { name: 'Reset Password' }));
    const alert = await screen.findByRole('alertdialog', { name: 'Password reset' });
    await user.click(within(alert).getByRole('button', { name: 'Done' }));
    await closed();
    expect(await menuButton('bob')).toHaveFocus();
  });
});

describe('Admin page: the last page of users', () => {
  it('steps back to the new last page when its last user is deleted', async () => {
    const others = Array.from({ length: 18 }, (_, i) =>
      makeAdminUser({ id: `x${i}`, username: `user-${i}`, email: `user-${i}@example.com` }),
    );
    // 21 users: the second page holds user-17 alone.
    const { user, queries } = renderAdmin(changingUsers([ada, bob, carol, ...others]));
    await row('bob');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Page 2 of 2')).toBeInTheDocument();

    await rowAction(user, 'user-17', 'Delete');
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await screen.findByText('User deleted successfully');

    // Twenty users are left: one page, which shows them.
    expect(await row('ada')).toBeInTheDocument();
    expect(screen.queryByText('No users yet')).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
    expect(queries('listUsers').at(-1)?.page).toBe('1');
  });
});
