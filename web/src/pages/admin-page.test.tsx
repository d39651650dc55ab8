import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  fakeAdminServer,
  makeAdminUser,
  renderWithAdminServer,
  serverError,
  userRow as row,
  usersTable,
} from '../test/admin-server.ts';

const query = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);

describe('Admin page: the users table', () => {
  it('shows every user with role, status, storage of quota, uploads and creation date', async () => {
    renderWithAdminServer(fakeAdminServer());
    expect(await screen.findByRole('heading', { name: 'Admin' })).toBeInTheDocument();
    for (const name of ['Users', 'Access Requests', 'Audit Log']) {
      expect(screen.getByRole('tab', { name })).toBeInTheDocument();
    }
    const table = await usersTable();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Username', 'Email', 'Role', 'Status', 'Storage', 'Uploads', 'Created', 'Actions']);

    const ada = await row('ada');
    expect(within(ada).getByText('You')).toBeInTheDocument();
    expect(within(ada).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(ada).getByText('Admin')).toBeInTheDocument();
    expect(within(ada).getByText('Active')).toBeInTheDocument();
    expect(ada).toHaveTextContent('3 MB of 10 GB');
    expect(within(ada).getByText('3')).toBeInTheDocument();
    expect(within(ada).getByText('Jan 1, 2025')).toBeInTheDocument();

    const carol = await row('carol');
    expect(within(carol).getByText('User')).toBeInTheDocument();
    expect(within(carol).getByText('Inactive')).toBeInTheDocument();
    expect(screen.getByText('3 users')).toBeInTheDocument();
  });

  it("says 'Failed to load users' when the list cannot be read", async () => {
    const server = fakeAdminServer();
    server.fail.listUsers = serverError;
    renderWithAdminServer(server);
    expect(await screen.findByText('Failed to load users')).toBeInTheDocument();
    expect(screen.getByText('The users could not be loaded.')).toBeInTheDocument();
  });
});

describe('Admin page: search and filters', () => {
  it('searches after typing stops, filters by role and status, shows badges and clears them all', async () => {
    const { user, sent } = renderWithAdminServer(fakeAdminServer());
    await row('bob');

    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'CAR');
    await waitFor(() => expect(screen.queryByRole('row', { name: 'bob' })).not.toBeInTheDocument());
    expect(await row('carol')).toBeInTheDocument();
    // One request for the whole word, not one per letter.
    expect(
      sent('GET', '/api/users')
        .map(query)
        .map((q) => q.search ?? ''),
    ).toEqual(['', 'CAR']);

    const filters = screen.getByRole('group', { name: 'Active filters' });
    expect(within(filters).getByText('Search: CAR')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Role: All Roles' }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'User' }));
    await user.click(screen.getByRole('button', { name: 'Status: All Statuses' }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Inactive' }));
    await waitFor(() =>
      expect(query(sent('GET', '/api/users').at(-1)!)).toMatchObject({
        search: 'CAR',
        role: 'user',
        status: 'inactive',
      }),
    );
    expect(within(filters).getByText('Role: User')).toBeInTheDocument();
    expect(within(filters).getByText('Status: Inactive')).toBeInTheDocument();

    await user.click(within(filters).getByRole('button', { name: 'Remove filter Search: CAR' }));
    expect(screen.getByRole('searchbox', { name: 'Search users' })).toHaveValue('');
    expect(await row('carol')).toBeInTheDocument();

    await user.click(within(filters).getByRole('button', { name: 'Clear All' }));
    expect(screen.queryByRole('group', { name: 'Active filters' })).not.toBeInTheDocument();
    expect(await row('bob')).toBeInTheDocument();
    expect(query(sent('GET', '/api/users').at(-1)!)).toEqual({ page: '1', limit: '20' });
  });

  it('says when no user matches', async () => {
    const { user } = renderWithAdminServer(fakeAdminServer());
    await row('bob');
    await user.click(screen.getByRole('button', { name: 'Status: All Statuses' }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Inactive' }));
    await user.click(screen.getByRole('button', { name: 'Role: All Roles' }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Admin' }));
    expect(await screen.findByText('No users match your filters')).toBeInTheDocument();
  });
});

describe('Admin page: Create User', () => {
  async function fillCreateUser(
    user: ReturnType<typeof renderWithAdminServer>['user'],
    { invite, admin = false }: { invite: boolean; admin?: boolean },
  ) {
    await row('bob');
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create User' });
    await user.type(within(dialog).getByLabelText('Email'), 'dan@example.com');
    await user.type(within(dialog).getByLabelText('Username'), 'dan');
    if (admin) await user.click(within(dialog).getByRole('radio', { name: 'Admin' }));
    const checkbox = within(dialog).getByRole('checkbox', { name: 'Send invite email' });
    expect(checkbox).toBeChecked();
    if (!invite) await user.click(checkbox);
    return dialog;
  }

  it('sends the invitation and says so when the email went out', async () => {
    const server = fakeAdminServer();
    const { user, sent } = renderWithAdminServer(server);
    const dialog = await fillCreateUser(user, { invite: true, admin: true });
    await user.click(within(dialog).getByRole('button', { name: 'Create User' }));

    expect(
      await screen.findByText('User created and invite email sent to dan@example.com'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(await sent('POST', '/api/users')[0]!.json()).toEqual({
      email: 'dan@example.com',
      username: 'dan',
      role: 'admin',
      sendInvite: true,
    });
    expect(await row('dan')).toBeInTheDocument();
    expect(server.mail.sent).toEqual([{ to: 'dan@example.com', kind: 'invite' }]);
  });

  it('without an invite says "User created successfully" and shows the credentials to hand on', async () => {
    const { user } = renderWithAdminServer(fakeAdminServer());
    const dialog = await fillCreateUser(user, { invite: false });
    await user.click(within(dialog).getByRole('button', { name: 'Create User' }));

    expect(await screen.findByText('User created successfully')).toBeInTheDocument();
    const alert = await screen.findByRole('alertdialog', { name: 'User created' });
    expect(within(alert).getByLabelText('Email')).toHaveValue('dan@example.com');
    expect(within(alert).getByLabelText('Username')).toHaveValue('dan');
    expect(within(alert).getByLabelText('Temporary password')).toHaveValue('Temp-Pass-1');
    expect(within(alert).queryByLabelText('Invite link')).not.toBeInTheDocument();

    await user.click(within(alert).getByRole('button', { name: 'Copy temporary password' }));
    expect(await navigator.clipboard.readText()).toBe('Temp-Pass-1');
    expect(
      within(alert).getByRole('button', { name: 'Temporary password copied' }),
    ).toBeInTheDocument();

    await user.click(within(alert).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it('warns when the invite email failed, and lists email, temporary password and link to send by hand', async () => {
    const server = fakeAdminServer({ mail: false });
    const { user, sent } = renderWithAdminServer(server);
    const dialog = await fillCreateUser(user, { invite: true });
    await user.click(within(dialog).getByRole('button', { name: 'Create User' }));

    expect(
      await screen.findByText('User created, but the invite email could not be sent'),
    ).toBeInTheDocument();
    const alert = await screen.findByRole('alertdialog', { name: 'Send these details by hand' });
    expect(within(alert).getByLabelText('Email')).toHaveValue('dan@example.com');
    expect(within(alert).getByLabelText('Temporary password')).toHaveValue('Temp-Pass-1');
    expect(within(alert).getByLabelText('Invite link')).toHaveValue(
      'http://localhost/register?invite=invite-dan',
    );

    // Trying the email again asks the server to send it; it still cannot.
    await user.click(within(alert).getByRole('button', { name: 'Try email again' }));
    expect(await screen.findByText('Failed to send invite email')).toBeInTheDocument();
    expect(await sent('POST', '/api/email/send-invite')[0]!.json()).toEqual({
      to: 'dan@example.com',
      username: 'dan',
      tempPassword: 'Temp-Pass-1',
      inviteCode: 'invite-dan',
    });
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();

    // Once the mail server is back, the alert closes on success.
    server.mail.works = true;
    await user.click(within(alert).getByRole('button', { name: 'Try email again' }));
    expect(await screen.findByText('Invite email sent to dan@example.com')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it("keeps the dialog open with the server's message when it refuses", async () => {
    const server = fakeAdminServer();
    server.users.push(makeAdminUser({ id: 'u9', username: 'other', email: 'dan@example.com' }));
    const { user } = renderWithAdminServer(server);
    const dialog = await fillCreateUser(user, { invite: false });
    await user.click(within(dialog).getByRole('button', { name: 'Create User' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'A user with this email already exists',
    );
    expect(screen.getByRole('dialog', { name: 'Create User' })).toBeInTheDocument();
  });

  it("says 'Failed to create user' when the server gives no reason", async () => {
    const server = fakeAdminServer();
    server.fail.createUser = () => new Response('Bad gateway', { status: 502 });
    const { user } = renderWithAdminServer(server);
    const dialog = await fillCreateUser(user, { invite: false });
    await user.click(within(dialog).getByRole('button', { name: 'Create User' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to create user');
  });
});
