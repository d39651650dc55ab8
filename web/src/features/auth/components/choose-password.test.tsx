import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../../test/fetch-mock.ts';
import { fakeAdminServer, renderWithAdminServer } from '../../../test/admin-server.ts';
import { currentUrl } from '../../../test/render-app.tsx';

function withTemporaryPassword(path = '/uploads?type=images') {
  const server = fakeAdminServer({
    me: {
      id: 'u5',
      username: 'tess',
      email: 'tess@example.com',
      role: 'user',
      mustChangePassword: true,
    },
  });
  server.passwords.set('u5', 'Temp-Pass-9');
  server.handlers['GET /api/uploads'] = () =>
    server.me!.mustChangePassword
      ? jsonResponse(403, {
          error: 'password_change_required',
          message: 'Choose a new password before continuing',
        })
      : jsonResponse(200, { uploads: [], total: 0, page: 1, limit: 20 });
  server.handlers['GET /api/preferences'] = () =>
    jsonResponse(200, {
      preferences: {
        defaultUploadPrivacy: true,
        emailNotifications: true,
        theme: 'system',
        uploadsPerPage: 20,
      },
    });
  server.handlers['GET /api/tags'] = () => jsonResponse(200, { tags: [] });
  return { server, ...renderWithAdminServer(server, path) };
}

async function choose(
  user: ReturnType<typeof withTemporaryPassword>['user'],
  current: string,
  next: string,
  confirm = next,
) {
  await user.type(await screen.findByLabelText('Temporary password'), current);
  await user.type(screen.getByLabelText('New password'), next);
  await user.type(screen.getByLabelText('Confirm new password'), confirm);
  await user.click(screen.getByRole('button', { name: 'Set Password' }));
}

describe('Choose your password', () => {
  it('comes before any screen while the password is temporary, then shows the one asked for', async () => {
    const { user, router, sent } = withTemporaryPassword();
    expect(
      await screen.findByRole('heading', { name: 'Choose your password' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    expect(sent('GET', '/api/uploads')).toHaveLength(0);

    await choose(user, 'Temp-Pass-9', 'my-own-password');
    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Uploads' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/uploads?type=images');
    expect(await sent('POST', '/api/users/u5/change-password')[0]!.json()).toEqual({
      currentPassword: 'Temp-Pass-9',
      newPassword: 'my-own-password',
    });
  });

  it("checks the new password with the brief's words", async () => {
    const { user, sent } = withTemporaryPassword();
    await choose(user, 'Temp-Pass-9', 'short');
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    await user.type(screen.getByLabelText('New password'), '-but-longer');
    expect(screen.getByText('New passwords do not match')).toBeInTheDocument();
    expect(sent('POST', '/api/users/u5/change-password')).toHaveLength(0);
  });

  it("shows the server's reason for a wrong temporary password", async () => {
    const { user } = withTemporaryPassword();
    await choose(user, 'not-it', 'my-own-password');
    expect(await screen.findByRole('alert')).toHaveTextContent('Current password is incorrect');
    expect(screen.getByRole('heading', { name: 'Choose your password' })).toBeInTheDocument();
  });

  it('lets the user sign out instead', async () => {
    const { user, router } = withTemporaryPassword();
    await user.click(await screen.findByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('auth_token')).toBeNull();
  });

  it('shows itself when any call answers 403 password_change_required', async () => {
    const server = fakeAdminServer({ me: { id: 'u5', username: 'tess', role: 'user' } });
    server.passwords.set('u5', 'Temp-Pass-9');
    let temporary = false;
    server.handlers['GET /api/stats'] = () =>
      temporary
        ? jsonResponse(403, {
            error: 'password_change_required',
            message: 'Choose a new password before continuing',
          })
        : jsonResponse(200, {
            totalUploads: 0,
            totalViews: 0,
            totalSize: 0,
            mostViewed: [],
            fileTypeBreakdown: [],
            uploadsPerDay: [],
          });
    const { user, router, queryClient } = renderWithAdminServer(server, '/dashboard');
    expect(await screen.findByText('Welcome back, tess')).toBeInTheDocument();

    // An administrator resets the password in the meantime; the next call finds out.
    temporary = true;
    server.me!.mustChangePassword = true;
    await queryClient.invalidateQueries({ queryKey: ['stats'] });
    expect(
      await screen.findByRole('heading', { name: 'Choose your password' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');

    temporary = false;
    await choose(user, 'Temp-Pass-9', 'my-own-password');
    expect(await screen.findByText('Welcome back, tess')).toBeInTheDocument();
  });
});
