import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../test/fetch-mock.ts';
import { fakeAdminServer, INVALID_INVITE, renderWithAdminServer } from '../test/admin-server.ts';

const INVITES = { 'good-code': { email: 'rita@example.com', username: 'rita' } };

function invited(
  path = '/register?invite=good-code',
  prepare: (server: ReturnType<typeof fakeAdminServer>) => void = () => {},
) {
  const server = fakeAdminServer({ me: null, invites: { ...INVITES } });
  prepare(server);
  return { server, ...renderWithAdminServer(server, path) };
}

const TOO_MANY = 'Too many attempts, try again in a minute';
const tooMany = () => jsonResponse(429, { error: 'rate_limited', message: TOO_MANY });

async function fillPasswords(user: ReturnType<typeof invited>['user']) {
  await user.type(await screen.findByLabelText('Password'), 'long-enough-1');
  await user.type(screen.getByLabelText('Confirm password'), 'long-enough-1');
}

describe('Registration with an invitation', () => {
  it('shows "Set your password" with the username prefilled', async () => {
    invited();
    expect(await screen.findByRole('heading', { name: 'Set your password' })).toBeInTheDocument();
    expect(await screen.findByLabelText('Username')).toHaveValue('rita');
    expect(screen.getByText('rita@example.com')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByLabelText('Confirm password')).toHaveAttribute('type', 'password');
  });

  it("checks the password with the brief's words before sending", async () => {
    const { user, sent } = invited();
    await user.type(await screen.findByLabelText('Password'), 'short');
    await user.type(screen.getByLabelText('Confirm password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'long-enough-1');
    expect(screen.queryByText('Password must be at least 8 characters')).not.toBeInTheDocument();
    expect(screen.getByText('New passwords do not match')).toBeInTheDocument();
    expect(sent('POST', '/api/auth/register')).toHaveLength(0);
  });

  it('signs in with the new password and lands on the dashboard', async () => {
    const { user, sent, router } = invited();
    await user.type(await screen.findByLabelText('Password'), 'long-enough-1');
    await user.type(screen.getByLabelText('Confirm password'), 'long-enough-1');
    await user.click(screen.getByRole('button', { name: 'Set Password' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await screen.findByText('Welcome back, rita')).toBeInTheDocument();
    expect(localStorage.getItem('auth_token')).toBe('registered-token');
    // The invitation's own username is not sent again.
    expect(await sent('POST', '/api/auth/register')[0]!.json()).toEqual({
      inviteCode: 'good-code',
      password: 'long-enough-1',
    });
  });

  it('sends a changed username', async () => {
    const { user, sent } = invited();
    const username = await screen.findByLabelText('Username');
    await user.clear(username);
    await user.type(username, 'rita.v');
    await user.type(screen.getByLabelText('Password'), 'long-enough-1');
    await user.type(screen.getByLabelText('Confirm password'), 'long-enough-1');
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    await waitFor(() => expect(sent('POST', '/api/auth/register')).toHaveLength(1));
    expect(await sent('POST', '/api/auth/register')[0]!.json()).toMatchObject({
      username: 'rita.v',
    });
  });

  it("shows the server's reason when it refuses the username", async () => {
    const { user, server } = invited();
    server.users.push({ ...server.users[0]!, id: 'x', username: 'taken', email: 'x@example.com' });
    const username = await screen.findByLabelText('Username');
    await user.clear(username);
    await user.type(username, 'taken');
    await user.type(screen.getByLabelText('Password'), 'long-enough-1');
    await user.type(screen.getByLabelText('Confirm password'), 'long-enough-1');
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This username is taken');
  });

  it('says an unknown or used invitation is invalid, with a link to Request Access', async () => {
    invited('/register?invite=nope');
    expect(await screen.findByText(INVALID_INVITE)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request Access' })).toHaveAttribute(
      'href',
      '/request-access',
    );
  });

  it('says so when the invitation is used up while the form is open', async () => {
    const { user, server } = invited();
    await user.type(await screen.findByLabelText('Password'), 'long-enough-1');
    await user.type(screen.getByLabelText('Confirm password'), 'long-enough-1');
    server.invites.clear();
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(await screen.findByRole('link', { name: 'Request Access' })).toBeInTheDocument();
    expect(screen.getAllByText(INVALID_INVITE).length).toBeGreaterThan(0);
  });

  it('says an invitation is invalid from its error code, whatever the words', async () => {
    const { user } = invited('/register?invite=good-code', (server) => {
      server.fail.register = () =>
        jsonResponse(400, { error: 'invalid_invite', message: 'This invitation was used already' });
    });
    await fillPasswords(user);
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(
      await screen.findByRole('heading', { name: 'Invitation not valid' }),
    ).toBeInTheDocument();
  });

  it("shows the server's message with Retry when the invitation cannot be checked now", async () => {
    const { user, server } = invited('/register?invite=good-code', (fake) => {
      fake.fail.inviteInfo = tooMany;
    });
    expect(await screen.findByText(TOO_MANY)).toBeInTheDocument();
    expect(screen.queryByText(INVALID_INVITE)).not.toBeInTheDocument();

    delete server.fail.inviteInfo;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByLabelText('Username')).toHaveValue('rita');
  });

  it("keeps the form with the server's message when registering is refused for another reason", async () => {
    const { user } = invited('/register?invite=good-code', (server) => {
      server.fail.register = tooMany;
    });
    await fillPasswords(user);
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(TOO_MANY);
    expect(screen.getByRole('button', { name: 'Set Password' })).toBeEnabled();
    expect(screen.queryByRole('heading', { name: 'Invitation not valid' })).not.toBeInTheDocument();
  });

  it('gives password managers the email as the account, not the username', async () => {
    invited();
    const username = await screen.findByLabelText('Username');
    expect(username).toHaveAttribute('autocomplete', 'off');
    const account = document.querySelector('input[autocomplete="username"]');
    expect(account).toHaveValue('rita@example.com');
    expect(account).not.toBeVisible();
  });
});
