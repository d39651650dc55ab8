import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { User } from '@upshot/contract';
import { deferred } from '../../../test/fetch-mock.ts';
import { makeUser, makeUserStats } from '../../../test/fixtures.ts';
import { mockApi, refuse, serverError, signIn, type Answer } from '../../../test/mock-api.ts';
import { currentUrl, renderApp } from '../../../test/render-app.tsx';

function signedInAs(role: 'user' | 'admin') {
  mockApi({ ...signIn(makeUser({ role })), stats: makeUserStats() });
}

describe('protected routes', () => {
  it("shows the full-screen 'Loading...' spinner while the session loads", async () => {
    const me = deferred<User>();
    mockApi({ ...signIn(), me: () => me.promise });
    // A screen without loading state of its own, so any 'Loading...' left would be the guard's.
    renderApp('/profile');

    expect(screen.getByRole('status')).toHaveTextContent('Loading...');

    me.resolve(makeUser());
    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
  });

  it.each(['/dashboard', '/uploads', '/settings', '/profile', '/admin'])(
    'redirects a signed-out visitor from %s to /login, replacing history',
    async (path) => {
      mockApi({});
      const { router } = renderApp(path);
      expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/login');
      expect(router.state.historyAction).toBe('REPLACE');
    },
  );

  it('redirects to /login when the stored token is rejected', async () => {
    mockApi({ ...signIn(), me: refuse(401, 'Authentication required') });
    const { router } = renderApp('/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('auth_token')).toBeNull();
  });

  it('sends a non-admin from /admin to /dashboard', async () => {
    signedInAs('user');
    const { router } = renderApp('/admin');
    expect(await screen.findByText('Welcome back, alice')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('lets an admin open /admin', async () => {
    signedInAs('admin');
    const { router } = renderApp('/admin');
    expect(await screen.findByRole('heading', { name: 'Admin' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin');
  });

  it('redirects / to /dashboard', async () => {
    signedInAs('user');
    const { router } = renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });
});

describe('public routes', () => {
  it.each(['/request-access', '/register'])('%s shows the request-access screen', async (path) => {
    mockApi({});
    renderApp(path);
    expect(await screen.findByRole('heading', { name: 'Request Access' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  });

  it('shows a not-found page with a link home for an unknown path', async () => {
    mockApi({});
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/');
  });
});

describe('a session the server cannot check at start', () => {
  it.each([
    ['answers 500', (): Answer<'me'> => serverError()],
    [
      'is unreachable',
      (): Answer<'me'> => {
        throw new TypeError('Failed to fetch');
      },
    ],
  ])('keeps the token when the server %s, and offers to try again', async (_, failure) => {
    let down = true;
    mockApi({
      ...signIn(),
      me: () => (down ? failure() : makeUser()),
      listTags: { tags: [] },
      listUploads: { uploads: [], total: 0, page: 1, limit: 20 },
    });
    const { user, router } = renderApp('/uploads?type=images');

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: "Couldn't reach the server" })).toBeVisible();
    expect(localStorage.getItem('auth_token')).toBe('tok');
    expect(currentUrl(router)).toBe('/uploads?type=images');

    down = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Uploads' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/uploads?type=images');
  });
});

describe('a session that ends on its own', () => {
  it('signs out on a 401 from any call, and signing in returns to the page with its query', async () => {
    let expired = false;
    mockApi({
      ...signIn(),
      stats: makeUserStats(),
      listTags: { tags: [] },
      listUploads: () =>
        expired
          ? refuse(401, 'Authentication required')
          : { uploads: [], total: 0, page: 1, limit: 20 },
      login: { token: 'fresh', user: makeUser() },
    });
    const { user, router } = renderApp('/dashboard');
    await screen.findByText('Welcome back, alice');

    expired = true; // the session is revoked elsewhere; the next call finds out
    await router.navigate('/uploads?type=images&sort=oldest');

    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('auth_token')).toBeNull();
    expect(
      await screen.findByText('Your session has expired. Please sign in again.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Failed to load uploads')).not.toBeInTheDocument();

    expired = false;
    await user.type(screen.getByLabelText('Email'), 'alice@example.com');
    await user.type(screen.getByLabelText('Password'), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(currentUrl(router)).toBe('/uploads?type=images&sort=oldest'));
    expect(await screen.findByText('No uploads match your filters')).toBeInTheDocument();
    expect(localStorage.getItem('auth_token')).toBe('fresh');
  });

  it('sends a visitor who opened a protected address back to it after signing in', async () => {
    mockApi({ login: { token: 't', user: makeUser() }, me: makeUser() });
    const { user, router } = renderApp('/profile?tab=keys');
    await screen.findByRole('heading', { name: 'Welcome back' });
    await user.type(screen.getByLabelText('Email'), 'alice@example.com');
    await user.type(screen.getByLabelText('Password'), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/profile?tab=keys'));
    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();
  });

  it('keeps the stored token at start unless the answer is a 401', async () => {
    mockApi({ ...signIn(), me: refuse(403, 'Disabled') });
    renderApp('/dashboard');
    expect(await screen.findByText("Couldn't reach the server")).toBeInTheDocument();
    expect(localStorage.getItem('auth_token')).toBe('tok');
  });
});
