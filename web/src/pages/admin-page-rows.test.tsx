// The Users tab's row menus: each action, its confirmation and where focus goes after it, and
// the uploader downloads.
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../test/fetch-mock.ts';
import {
  fakeAdminServer,
  makeAdminUser,
  renderWithAdminServer,
  rowAction,
  serverError,
  userRow as row,
} from '../test/admin-server.ts';

describe('Admin page: row actions', () => {
  it('resets a password after a confirmation and copies the temporary one', async () => {
    const server = fakeAdminServer();
    const { user, sent } = renderWithAdminServer(server);
    await rowAction(user, 'bob', 'Reset password');

    const confirm = await screen.findByRole('alertdialog', { name: 'Reset password' });
    expect(confirm).toHaveTextContent('Reset the password of "bob"?');
    expect(sent('POST', '/api/users/u2/reset-password')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Reset Password' }));

    expect(await screen.findByText('Password reset and copied to clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe('Temp-Pass-1');
    expect(sent('POST', '/api/users/u2/reset-password')).toHaveLength(1);
  });

  it('shows the temporary password when the clipboard refuses it', async () => {
    const { user } = renderWithAdminServer(fakeAdminServer());
    await row('bob');
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValueOnce(new Error('denied'));
    await rowAction(user, 'bob', 'Reset password');
    await user.click(await screen.findByRole('button', { name: 'Reset Password' }));
    const alert = await screen.findByRole('alertdialog', { name: 'Password reset' });
    expect(within(alert).getByLabelText('Temporary password')).toHaveValue('Temp-Pass-1');
  });

  it("says 'Failed to reset password' when the reset fails, and nothing on cancel", async () => {
    const server = fakeAdminServer();
    server.fail.resetPassword = serverError;
    const { user, sent } = renderWithAdminServer(server);
    await rowAction(user, 'bob', 'Reset password');
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(sent('POST', '/api/users/u2/reset-password')).toHaveLength(0);

    await rowAction(user, 'bob', 'Reset password');
    await user.click(await screen.findByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Failed to reset password')).toBeInTheDocument();
  });

  it('deletes a user after a confirmation', async () => {
    const { user } = renderWithAdminServer(fakeAdminServer());
    await rowAction(user, 'bob', 'Delete');
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete user' });
    expect(confirm).toHaveTextContent(
      'Delete "bob" with all their uploads? This cannot be undone.',
    );
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('User deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('row', { name: 'bob' })).not.toBeInTheDocument());
  });

  it("says 'Failed to delete user', with the server's reason", async () => {
    const server = fakeAdminServer();
    server.fail.deleteUser = () =>
      jsonResponse(409, {
        error: 'conflict',
        message: 'Upshot needs at least one active administrator',
      });
    const { user } = renderWithAdminServer(server);
    await rowAction(user, 'bob', 'Delete');
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete user')).toBeInTheDocument();
    expect(screen.getByText('Upshot needs at least one active administrator')).toBeInTheDocument();
  });

  it('offers neither reset password, delete nor deactivate on your own row', async () => {
    const { user } = renderWithAdminServer(fakeAdminServer());
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
    const { user, sent } = renderWithAdminServer(fakeAdminServer());
    await rowAction(user, 'bob', 'Deactivate');
    expect(await screen.findByText('bob deactivated')).toBeInTheDocument();
    await waitFor(async () =>
      expect(within(await row('bob')).getByText('Inactive')).toBeInTheDocument(),
    );
    expect(await sent('PATCH', '/api/users/u2')[0]!.json()).toEqual({ isActive: false });

    await rowAction(user, 'carol', 'Activate');
    expect(await screen.findByText('carol activated')).toBeInTheDocument();
  });

  it('makes a user an admin at once', async () => {
    const { user } = renderWithAdminServer(fakeAdminServer());
    await rowAction(user, 'bob', 'Make admin');
    expect(await screen.findByText('bob is now an admin')).toBeInTheDocument();
    await waitFor(async () => expect(within(await row('bob')).getByText('Admin')).toBeVisible());
  });

  it('asks before an admin demotes themself, then leaves the Admin screen', async () => {
    const server = fakeAdminServer();
    server.users.push(makeAdminUser({ id: 'u8', username: 'eve', role: 'admin' }));
    const { user, router, sent } = renderWithAdminServer(server);
    await rowAction(user, 'ada', 'Make user');

    const confirm = await screen.findByRole('alertdialog', { name: 'Remove your admin role?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(sent('PATCH', '/api/users/admin1')).toHaveLength(0);

    await rowAction(user, 'ada', 'Make user');
    await user.click(await screen.findByRole('button', { name: 'Make me a user' }));
    expect(await screen.findByText('ada is now a user')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('refuses to leave Upshot without an active administrator', async () => {
    const { user } = renderWithAdminServer(fakeAdminServer());
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
    const { user, sent } = renderWithAdminServer(fakeAdminServer());
    await rowAction(user, 'bob', 'Download ShareX config');
    await waitFor(() => expect(saved).toEqual(['upshot-bob.sxcu']));
    await rowAction(user, 'bob', 'Download bash script');
    await rowAction(user, 'bob', 'Download PowerShell script');
    await waitFor(() =>
      expect(saved).toEqual(['upshot-bob.sxcu', 'upshot-bob.sh', 'upshot-bob.ps1']),
    );
    expect(sent('GET', '/api/users/u2/sharex-config')[0]!.headers.get('Authorization')).toBe(
      'Bearer tok',
    );
  });

  it("says 'Failed to download config' when a download fails", async () => {
    const server = fakeAdminServer();
    server.fail.download = serverError;
    const { user } = renderWithAdminServer(server);
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
    const { user } = renderWithAdminServer(fakeAdminServer());
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
    const { user } = renderWithAdminServer(fakeAdminServer());
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
    const server = fakeAdminServer();
    for (let i = 1; i <= 19; i++) {
      server.users.push(
        makeAdminUser({ id: `x${i}`, username: `user-${i}`, email: `user-${i}@example.com` }),
      );
    }
    expect(server.users).toHaveLength(22);
    const { user, sent } = renderWithAdminServer(server);
    await row('bob');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Page 2 of 2')).toBeInTheDocument();
    await row('user-18');

    for (const name of ['user-18', 'user-19']) {
      await rowAction(user, name, 'Delete');
      await user.click(await screen.findByRole('button', { name: 'Delete' }));
      await screen.findByText('User deleted successfully');
      await waitFor(() => expect(screen.queryByRole('row', { name })).not.toBeInTheDocument());
    }

    // Twenty users are left: one page, which shows them.
    expect(await row('ada')).toBeInTheDocument();
    expect(screen.queryByText('No users yet')).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
    expect(new URL(sent('GET', '/api/users').at(-1)!.url).searchParams.get('page')).toBe('1');
  });
});
