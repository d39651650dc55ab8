import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { User } from '@upshot/contract';
import { deferred } from '../../test/fetch-mock.ts';
import { makeUser } from '../../test/fixtures.ts';
import { mockApi, noContent, refuse } from '../../test/mock-api.ts';
import { createTestQueryClient } from '../../test/render-app.tsx';
import { useAuth } from './auth-context.ts';
import { AuthProvider } from './auth-provider.tsx';

function wrapper({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={createTestQueryClient()}>
      <AuthProvider>{children}</AuthProvider>
    </QueryClientProvider>
  );
}

function SessionProbe() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <p>session loading</p>;
  return <p>{user ? `signed in as ${user.username}` : 'signed out'}</p>;
}

describe('AuthProvider', () => {
  it('fetches the current user with a stored token', async () => {
    localStorage.setItem('auth_token', 'good-token');
    const me = deferred<User>();
    const { sent } = mockApi({ me: () => me.promise });

    render(<SessionProbe />, { wrapper });

    expect(screen.getByText('session loading')).toBeInTheDocument();
    me.resolve(makeUser());
    expect(await screen.findByText('signed in as alice')).toBeInTheDocument();
    expect(sent('me')[0]!.headers.get('Authorization')).toBe('Bearer good-token');
    expect(localStorage.getItem('auth_token')).toBe('good-token');
  });

  it('silently clears a stored token the server rejects, and stops loading', async () => {
    localStorage.setItem('auth_token', 'stale-token');
    mockApi({ me: refuse(401, 'Authentication required') });

    render(<SessionProbe />, { wrapper });

    expect(await screen.findByText('signed out')).toBeInTheDocument();
    expect(localStorage.getItem('auth_token')).toBeNull();
  });

  it('makes no request and is not loading without a stored token', () => {
    const { fetchMock } = mockApi({});
    render(<SessionProbe />, { wrapper });
    expect(screen.getByText('signed out')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('login stores the token and sets the user; logout tells the server and clears both', async () => {
    const { sent } = mockApi({
      login: { token: 'new-token', user: makeUser() },
      logout: noContent(),
    });
    const { result } = renderHook(() => useAuth(), { wrapper });

    await act(() => result.current.login({ email: 'alice@example.com', password: 'pw' }));
    expect(result.current.user?.username).toBe('alice');
    expect(localStorage.getItem('auth_token')).toBe('new-token');

    await act(() => result.current.logout());
    expect(sent('logout')[0]!.headers.get('Authorization')).toBe('Bearer new-token');
    expect(result.current.user).toBeNull();
    expect(localStorage.getItem('auth_token')).toBeNull();
  });

  it('logout clears the session even when the server call fails, and reports the failure', async () => {
    localStorage.setItem('auth_token', 'tok');
    mockApi({ me: makeUser(), logout: refuse(500, 'x') });
    const { result } = renderHook(() => useAuth(), { wrapper });
    await waitFor(() => expect(result.current.user).not.toBeNull());

    await act(() => expect(result.current.logout()).rejects.toMatchObject({ message: 'x' }));
    expect(result.current.user).toBeNull();
    expect(localStorage.getItem('auth_token')).toBeNull();
  });

  it('logs out quietly when the session had already ended (401)', async () => {
    localStorage.setItem('auth_token', 'tok');
    mockApi({ me: makeUser(), logout: refuse(401, 'Authentication required') });
    const { result } = renderHook(() => useAuth(), { wrapper });
    await waitFor(() => expect(result.current.user).not.toBeNull());

    await act(() => result.current.logout());
    expect(result.current.user).toBeNull();
    expect(result.current.sessionEnd).toBe('logout');
    expect(localStorage.getItem('auth_token')).toBeNull();
  });

  it('keeps the token when the check fails for another reason than 401, and retries it', async () => {
    localStorage.setItem('auth_token', 'tok');
    let down = true;
    mockApi({ me: () => (down ? refuse(502, 'x') : makeUser()) });
    const { result } = renderHook(() => useAuth(), { wrapper });
    await waitFor(() => expect(result.current.isUnavailable).toBe(true));
    expect(result.current.user).toBeNull();
    expect(result.current.isLoading).toBe(false);
    expect(localStorage.getItem('auth_token')).toBe('tok');

    down = false;
    act(() => result.current.retry());
    await waitFor(() => expect(result.current.user?.username).toBe('alice'));
    expect(result.current.isUnavailable).toBe(false);
  });
});

describe('useAuth', () => {
  it('throws outside an AuthProvider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => renderHook(() => useAuth())).toThrow(
      new Error('useAuth must be used within an AuthProvider'),
    );
  });
});
