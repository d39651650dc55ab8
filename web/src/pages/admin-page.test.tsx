import type { CreateUserResponse } from '@upshot/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ada, bob, carol, renderAdmin, usersPage } from '../test/admin.ts';
import { makeAdminUser } from '../test/fixtures.ts';
import { refuse, reply, serverError, type Answer } from '../test/mock-api.ts';
import { userRow as row, usersTable } from '../test/queries.ts';

describe('Admin page: the users table', () => {
  it('shows every user with role, status, storage of quota, uploads and creation date', async () => {
    renderAdmin();
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

    const adaRow = await row('ada');
    expect(within(adaRow).getByText('You')).toBeInTheDocument();
    expect(within(adaRow).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(adaRow).getByText('Admin')).toBeInTheDocument();
    expect(within(adaRow).getByText('Active')).toBeInTheDocument();
    expect(adaRow).toHaveTextContent('3 MB of 10 GB');
    expect(within(adaRow).getByText('3')).toBeInTheDocument();
    expect(within(adaRow).getByText('Jan 1, 2025')).toBeInTheDocument();

    const carolRow = await row('carol');
    expect(within(carolRow).getByText('User')).toBeInTheDocument();
    expect(within(carolRow).getByText('Inactive')).toBeInTheDocument();
    expect(screen.getByText('3 users')).toBeInTheDocument();
  });

  it("says 'Failed to load users' when the list cannot be read, and tries again", async () => {
    let answer: Answer<'listUsers'> = serverError();
    const { user } = renderAdmin({ listUsers: () => answer });
    expect(await screen.findByText('Failed to load users')).toBeInTheDocument();
    expect(screen.getByText('The users could not be loaded.')).toBeInTheDocument();

    answer = usersPage([ada, bob]);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await row('bob')).toBeInTheDocument();
  });
});

describe('Admin page: search and filters', () => {
  it('searches after typing stops, filters by role and status, shows badges and clears them all', async () => {
    // The server answers any filter with carol alone.
    const { user, queries } = renderAdmin({
      listUsers: ({ query }) =>
        usersPage(
          ['search', 'role', 'status'].some((key) => query.has(key)) ? [carol] : [ada, bob, carol],
        ),
    });
    await row('bob');

    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'CAR');
    await waitFor(() => expect(screen.queryByRole('row', { name: 'bob' })).not.toBeInTheDocument());
    expect(await row('carol')).toBeInTheDocument();
    // One request for the whole word, not one per letter.
    expect(queries('listUsers').map((q) => q.search ?? '')).toEqual(['', 'CAR']);

    const filters = screen.getByRole('group', { name: 'Active filters' });
    expect(within(filters).getByText('Search: CAR')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Role: All Roles' }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'User' }));
    await user.click(screen.getByRole('button', { name: 'Status: All Statuses' }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Inactive' }));
    await waitFor(() =>
      expect(queries('listUsers').at(-1)).toMatchObject({
        search: 'CAR',
        role: 'user',
        status: 'inactive',
      }),
    );
    expect(within(filters).getByText('Role: User')).toBeInTheDocument();
    expect(within(filters).getByText('Status: Inactive')).toBeInTheDocument();

    await user.click(within(filters).getByRole('button', { name: 'Remove filter Search: CAR' }));
    expect(screen.getByRole('searchbox', { name: 'Search users' })).toHaveValue('');
    await waitFor(() =>
      expect(queries('listUsers').at(-1)).toEqual({
        role: 'user',
        status: 'inactive',
        page: '1',
        limit: '20',
      }),
    );
    expect(await row('carol')).toBeInTheDocument();

    await user.click(within(filters).getByRole('button', { name: 'Clear All' }));
    expect(screen.queryByRole('group', { name: 'Active filters' })).not.toBeInTheDocument();
    expect(await row('bob')).toBeInTheDocument();
    expect(queries('listUsers').at(-1)).toEqual({ page: '1', limit: '20' });
  });

  it('says when no user matches', async () => {
    const { user } = renderAdmin({
      listUsers: ({ query }) => usersPage(query.has('status') ? [] : [ada, bob, carol]),
    });
    await row('bob');
    await user.click(screen.getByRole('button', { name: 'Status: All Statuses' }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Inactive' }));
    expect(await screen.findByText('No users match your filters')).toBeInTheDocument();
  });

  it("says 'No users yet' when there are none and nothing filters them", async () => {
    renderAdmin({ listUsers: usersPage([]) });
    expect(await screen.findByText('No users yet')).toBeInTheDocument();
  });
});

describe('Admin page: Create User', () => {
  const dan = makeAdminUser({
    id: 'new1',
    username: 'dan',
    email: 'dan@example.com',
    mustChangePassword: true,
  });
  const created = (overrides: Partial<CreateUserResponse> = {}): CreateUserResponse => ({
    user: dan,
    tempPassword: 'Temp-Pass-1',
    inviteCode: null,
    inviteUrl: null,
    emailSent: false,
    ...overrides,
  });
  const invited = (emailSent: boolean) =>
    created({
      inviteCode: 'invite-dan',
      inviteUrl: 'http://localhost/register?invite=invite-dan',
      emailSent,
    });

  async function fillCreateUser(
    user: ReturnType<typeof renderAdmin>['user'],
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

  it('asks for email and username, role User unless Admin is picked, and the invite by default', async () => {
    const { user } = renderAdmin();
    await row('bob');
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create User' });
    expect(within(dialog).getByLabelText('Email')).toBeRequired();
    expect(within(dialog).getByLabelText('Username')).toBeRequired();
    expect(within(dialog).getByRole('radiogroup', { name: 'Role' })).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: 'User' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Send invite email' })).toBeChecked();
    expect(
      within(dialog).getByRole('checkbox', { name: 'Send invite email' }),
    ).toHaveAccessibleDescription(/Emails a link to set a password, valid for 7 days/);
  });

  it('sends the invitation, says so when the email went out, and lists the new user', async () => {
    let users = [ada, bob, carol];
    const { user, bodies } = renderAdmin({
      listUsers: () => usersPage(users),
      createUser: () => {
        users = [...users, dan];
        return reply(201, invited(true));
      },
    });
    const dialog = await fillCreateUser(user, { invite: true, admin: true });
    await user.click(within(dialog).getByRole('button', { name: 'Create User' }));

    expect(
      await screen.findByText('User created and invite email sent to dan@example.com'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(await bodies('createUser')).toEqual([
      { email: 'dan@example.com', username: 'dan', role: 'admin', sendInvite: true },
    ]);
    expect(await row('dan')).toBeInTheDocument();
  });

  it('without an invite says "User created successfully" and shows the credentials to hand on', async () => {
    const { user, bodies } = renderAdmin({ createUser: reply(201, created()) });
    const dialog = await fillCreateUser(user, { invite: false });
    await user.click(within(dialog).getByRole('button', { name: 'Create User' }));

    expect(await screen.findByText('User created successfully')).toBeInTheDocument();
    expect((await bodies('createUser'))[0]).toMatchObject({ role: 'user', sendInvite: false });
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
    let mailWorks = false;
    const { user, bodies } = renderAdmin({
      createUser: reply(201, invited(false)),
      sendInvite: () =>
        mailWorks
          ? { emailSent: true }
          : refuse(
              503,
              'Email is not configured on this server (set SMTP_URL); send the details by hand',
              'email_not_sent',
            ),
    });
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
    expect(await bodies('sendInvite')).toEqual([
      {
        to: 'dan@example.com',
        username: 'dan',
        tempPassword: 'Temp-Pass-1',
        inviteCode: 'invite-dan',
      },
    ]);
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();

    // Once the mail server is back, the alert closes on success.
    mailWorks = true;
    await user.click(within(alert).getByRole('button', { name: 'Try email again' }));
    expect(await screen.findByText('Invite email sent to dan@example.com')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it("keeps the dialog open with the server's message when it refuses", async () => {
    const { user } = renderAdmin({
      createUser: refuse(409, 'A user with this email already exists'),
    });
    const dialog = await fillCreateUser(user, { invite: false });
    await user.click(within(dialog).getByRole('button', { name: 'Create User' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'A user with this email already exists',
    );
    expect(screen.getByRole('dialog', { name: 'Create User' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Email')).toHaveValue('dan@example.com');
  });

  it("says 'Failed to create user' when the server gives no reason", async () => {
    const { user } = renderAdmin({
      createUser: new Response('Bad gateway', { status: 502 }),
    });
    const dialog = await fillCreateUser(user, { invite: false });
    await user.click(within(dialog).getByRole('button', { name: 'Create User' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to create user');
  });
});
