import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '@upshot/contract';
import { deferred } from '../test/fetch-mock.ts';
import { makeUser, makeUserStats } from '../test/fixtures.ts';
import { mockApi, refuse, signIn, type Answer } from '../test/mock-api.ts';
import { renderApp } from '../test/render-app.tsx';

async function fillAndSubmit(user: ReturnType<typeof renderApp>['user']) {
  await user.type(await screen.findByLabelText('Email'), 'alice@example.com');
  await user.type(screen.getByLabelText('Password'), 'correct horse');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('sign-in screen', () => {
  it('shows the texts of the brief', async () => {
    mockApi({});
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(screen.getByText('Sign in to your account')).toBeInTheDocument();
    expect(screen.getByText('Enter your credentials to access your account')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Email')).toBeRequired();
    expect(screen.getByLabelText('Password')).toBeRequired();
    expect(screen.getByText("Don't have access?")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request Access' })).toHaveAttribute(
      'href',
      '/request-access',
    );
  });

  it("disables the form and reads 'Signing in...' while the request runs, then signs in", async () => {
    const login = deferred<AuthResponse>();
    const { bodies } = mockApi({
      login: () => login.promise,
      me: makeUser(),
      stats: makeUserStats(),
    });
    const { user, router } = renderApp('/login');

    await fillAndSubmit(user);

    const button = await screen.findByRole('button', { name: 'Signing in...' });
    expect(button).toBeDisabled();
    expect(screen.getByLabelText('Email')).toBeDisabled();
    expect(screen.getByLabelText('Password')).toBeDisabled();
    expect(await bodies('login')).toEqual([
      { email: 'alice@example.com', password: 'correct horse' },
    ]);

    login.resolve({ token: 'session-token', user: makeUser() });

    expect(await screen.findByText('Welcome back!')).toBeInTheDocument();
    expect(await screen.findByText('Welcome back, alice')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(localStorage.getItem('auth_token')).toBe('session-token');
  });

  it("shows the server's message when sign-in fails, and re-enables the form", async () => {
    mockApi({ login: refuse(429, 'Too many sign-in attempts. Try again in a minute.') });
    const { user, router } = renderApp('/login');

    await fillAndSubmit(user);

    // Under the fields, tied to them, and in the toast.
    const form = screen.getByRole('button', { name: /Sign in/ }).closest('form')!;
    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent('Too many sign-in attempts. Try again in a minute.');
    for (const field of [screen.getByLabelText('Email'), screen.getByLabelText('Password')]) {
      expect(field).toHaveAccessibleDescription(
        'Too many sign-in attempts. Try again in a minute.',
      );
      expect(field).toHaveAttribute('aria-invalid', 'true');
    }
    expect(screen.getAllByText('Too many sign-in attempts. Try again in a minute.')).toHaveLength(
      2,
    );
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('auth_token')).toBeNull();
  });

  it("falls back to 'Invalid credentials' when the error has no message", async () => {
    // A 500 without a message: the body is not the server's error shape.
    mockApi({ login: new Response(JSON.stringify({ error: 'internal_error' }), { status: 500 }) });
    const { user } = renderApp('/login');
    await fillAndSubmit(user);
    await waitFor(() => expect(screen.getAllByText('Invalid credentials')).toHaveLength(2));
  });

  it("falls back to 'Invalid credentials' when the network fails", async () => {
    mockApi({
      login: (): Answer<'login'> => {
        throw new TypeError('Failed to fetch');
      },
    });
    const { user } = renderApp('/login');
    await fillAndSubmit(user);
    await waitFor(() => expect(screen.getAllByText('Invalid credentials')).toHaveLength(2));
    expect(screen.queryByText('Failed to fetch')).not.toBeInTheDocument();
  });

  it('sends a signed-in user on to the dashboard', async () => {
    mockApi({ ...signIn(), stats: makeUserStats() });
    const { router } = renderApp('/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await screen.findByText('Welcome back, alice')).toBeInTheDocument();
  });

  it('clears the error under the fields when the form is sent again', async () => {
    const answer = deferred<AuthResponse>();
    let calls = 0;
    mockApi({
      login: () => (calls++ === 0 ? refuse(401, 'Invalid credentials') : answer.promise),
      me: makeUser(),
      stats: makeUserStats(),
    });
    const { user } = renderApp('/login');
    await fillAndSubmit(user);
    const form = screen.getByRole('button', { name: 'Sign in' }).closest('form')!;
    expect(await within(form).findByRole('alert')).toHaveTextContent('Invalid credentials');

    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('button', { name: 'Signing in...' })).toBeDisabled();
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    answer.resolve({ token: 't', user: makeUser() });
    expect(await screen.findByText('Welcome back, alice')).toBeInTheDocument();
  });
});
