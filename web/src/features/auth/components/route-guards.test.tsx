import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred, jsonResponse, mockFetch } from '../../../test/fetch-mock.ts';
import { makeUser } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/render-app.tsx';

function signedInAs(role: 'user' | 'admin') {
  localStorage.setItem('auth_token', 'tok');
  mockFetch({ 'GET /api/auth/me': () => jsonResponse(200, makeUser({ role })) });
}

describe('protected routes', () => {
  it("shows the full-screen 'Loading...' spinner while the session loads", async () => {
    localStorage.setItem('auth_token', 'tok');
    const me = deferred<Response>();
    mockFetch({ 'GET /api/auth/me': () => me.promise });
    // A screen without loading state of its own, so any 'Loading...' left would be the guard's.
    renderApp('/profile');

    expect(screen.getByRole('status')).toHaveTextContent('Loading...');

    me.resolve(jsonResponse(200, makeUser()));
    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
  });

  it.each(['/dashboard', '/uploads', '/settings', '/profile', '/admin'])(
    'redirects a signed-out visitor from %s to /login, replacing history',
    async (path) => {
      mockFetch({});
      const { router } = renderApp(path);
      expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/login');
      expect(router.state.historyAction).toBe('REPLACE');
    },
  );

  it('redirects to /login when the stored token is rejected', async () => {
    localStorage.setItem('auth_token', 'stale');
    mockFetch({
      'GET /api/auth/me': () => jsonResponse(401, { error: 'unauthorized', message: 'no' }),
    });
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
  it.each(['/request-access', '/register'])('%s shows the request-access screen', (path) => {
    mockFetch({});
    renderApp(path);
    expect(screen.getByRole('heading', { name: 'Request Access' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Login' })).toHaveAttribute('href', '/login');
  });

  it('shows a not-found page with a link home for an unknown path', () => {
    mockFetch({});
    renderApp('/no/such/page');
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/');
  });
});
