import type { InviteInfo } from '@upshot/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser, makeUserStats } from '../test/fixtures.ts';
import { mockApi, refuse, type Answer, type Answers } from '../test/mock-api.ts';
import { renderApp } from '../test/render-app.tsx';

const INVALID_INVITE = 'This invitation is invalid or has expired';
const TOO_MANY = 'Too many attempts, try again in a minute';

const invite: InviteInfo = {
  email: 'rita@example.com',
  username: 'rita',
  expiresAt: '2025-03-12T09:30:00.000Z',
};
const rita = makeUser({ id: 'invited1', email: 'rita@example.com', username: 'rita' });

/** A visitor at /register with an invitation the server knows, unless `answers` say else. */
function invited(answers: Answers = {}, path = '/register?invite=good-code') {
  const network = mockApi({
    inviteInfo: invite,
    register: { token: 'registered-token', user: rita },
    // Where registering lands: the dashboard, signed in.
    me: rita,
    stats: makeUserStats(),
    ...answers,
  });
  return { ...renderApp(path), ...network };
}

async function fillPasswords(user: ReturnType<typeof invited>['user']) {
  await user.type(await screen.findByLabelText('Password'), 'long-enough-1');
  await user.type(screen.getByLabelText('Confirm password'), 'long-enough-1');
}

describe('Registration with an invitation', () => {
  it('shows "Set your password" with the username prefilled', async () => {
    const { sent } = invited();
    expect(await screen.findByRole('heading', { name: 'Set your password' })).toBeInTheDocument();
    expect(await screen.findByLabelText('Username')).toHaveValue('rita');
    expect(screen.getByText('rita@example.com')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByLabelText('Confirm password')).toHaveAttribute('type', 'password');
    expect(new URL(sent('inviteInfo')[0]!.url).pathname).toBe('/api/auth/invites/good-code');
  });

  it("checks the password with the brief's words before sending", async () => {
    const { user, sent } = invited();
    await user.type(await screen.findByLabelText('Password'), 'short');
    await user.type(screen.getByLabelText('Confirm password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(
      'Password must be at least 8 characters',
    );

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'long-enough-1');
    expect(screen.queryByText('Password must be at least 8 characters')).not.toBeInTheDocument();
    expect(screen.getByText('New passwords do not match')).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm password')).toHaveAttribute('aria-invalid', 'true');
    expect(sent('register')).toHaveLength(0);
  });

  it('asks for a username when the field is emptied', async () => {
    const { user, sent } = invited();
    await user.clear(await screen.findByLabelText('Username'));
    await fillPasswords(user);
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(screen.getByLabelText('Username')).toHaveAccessibleDescription('Username is required');
    expect(sent('register')).toHaveLength(0);
  });

  it('signs in with the new password and lands on the dashboard', async () => {
    const { user, bodies, router } = invited();
    await fillPasswords(user);
    await user.click(screen.getByRole('button', { name: 'Set Password' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await screen.findByText('Welcome back, rita')).toBeInTheDocument();
    expect(localStorage.getItem('auth_token')).toBe('registered-token');
    // The invitation's own username is not sent again.
    expect(await bodies('register')).toEqual([
      { inviteCode: 'good-code', password: 'long-enough-1' },
    ]);
  });

  it('sends a changed username', async () => {
    const { user, bodies } = invited();
    const username = await screen.findByLabelText('Username');
    await user.clear(username);
    await user.type(username, 'rita.v');
    await fillPasswords(user);
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    await waitFor(async () =>
      expect(await bodies('register')).toEqual([
        { inviteCode: 'good-code', password: 'long-enough-1', username: 'rita.v' },
      ]),
    );
  });

  it("shows the server's reason when it refuses the username", async () => {
    const { user } = invited({ register: refuse(409, 'This username is taken') });
    const username = await screen.findByLabelText('Username');
    await user.clear(username);
    await user.type(username, 'taken');
    await fillPasswords(user);
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This username is taken');
    expect(screen.getByRole('button', { name: 'Set Password' })).toBeEnabled();
  });

  it('says an unknown or used invitation is invalid, with a link to Request Access', async () => {
    invited({ inviteInfo: refuse(400, INVALID_INVITE, 'invalid_invite') }, '/register?invite=nope');
    expect(await screen.findByText(INVALID_INVITE)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request Access' })).toHaveAttribute(
      'href',
      '/request-access',
    );
  });

  it('says so when the invitation is used up while the form is open', async () => {
    const { user } = invited({ register: refuse(400, INVALID_INVITE, 'invalid_invite') });
    await fillPasswords(user);
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(await screen.findByRole('link', { name: 'Request Access' })).toBeInTheDocument();
    expect(screen.getAllByText(INVALID_INVITE).length).toBeGreaterThan(0);
  });

  it('says an invitation is invalid from its error code, whatever the words', async () => {
    const { user } = invited({
      register: refuse(400, 'This invitation was used already', 'invalid_invite'),
    });
    await fillPasswords(user);
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(
      await screen.findByRole('heading', { name: 'Invitation not valid' }),
    ).toBeInTheDocument();
  });

  it("shows the server's message with Try again when the invitation cannot be checked now", async () => {
    let answer: Answer<'inviteInfo'> = refuse(429, TOO_MANY);
    const { user } = invited({ inviteInfo: () => answer });
    expect(await screen.findByText(TOO_MANY)).toBeInTheDocument();
    expect(screen.queryByText(INVALID_INVITE)).not.toBeInTheDocument();

    answer = invite;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('Username')).toHaveValue('rita');
  });

  it("keeps the form with the server's message when registering is refused for another reason", async () => {
    const { user } = invited({ register: refuse(429, TOO_MANY) });
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
