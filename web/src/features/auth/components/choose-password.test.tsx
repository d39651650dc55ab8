import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser, makeUserStats } from '../../../test/fixtures.ts';
import {
  mockApi,
  noContent,
  refuse,
  signIn,
  type Answer,
  type Answers,
} from '../../../test/mock-api.ts';
import { currentUrl, renderApp } from '../../../test/render-app.tsx';

const tess = makeUser({ id: 'u5', username: 'tess', email: 'tess@example.com' });
const CHANGE_REQUIRED = refuse(
  403,
  'Choose a new password before continuing',
  'password_change_required',
);

/**
 * Tess signed in with a temporary password: the server answers 403 password_change_required
 * to everything but the change, until she has chosen her own.
 */
function withTemporaryPassword(path = '/uploads?type=images', answers: Answers = {}) {
  let temporary = true;
  const network = mockApi({
    ...signIn(tess),
    me: () => ({ ...tess, mustChangePassword: temporary }),
    listUploads: () =>
      temporary ? CHANGE_REQUIRED : { uploads: [], total: 0, page: 1, limit: 20 },
    listTags: { tags: [] },
    changePassword: () => {
      temporary = false;
      return noContent();
    },
    ...answers,
  });
  return { ...renderApp(path), ...network };
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
    const { user, router, sent, bodies } = withTemporaryPassword();
    expect(
      await screen.findByRole('heading', { name: 'Choose your password' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    expect(sent('listUploads')).toHaveLength(0);

    await choose(user, 'Temp-Pass-9', 'my-own-password');
    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Uploads' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/uploads?type=images');
    expect(new URL(sent('changePassword')[0]!.url).pathname).toBe('/api/users/u5/change-password');
    expect(await bodies('changePassword')).toEqual([
      { currentPassword: 'Temp-Pass-9', newPassword: 'my-own-password' },
    ]);
  });

  it("checks the new password with the brief's words", async () => {
    const { user, sent } = withTemporaryPassword();
    await choose(user, 'Temp-Pass-9', 'short');
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    await user.type(screen.getByLabelText('New password'), '-but-longer');
    expect(screen.getByText('New passwords do not match')).toBeInTheDocument();
    expect(sent('changePassword')).toHaveLength(0);
  });

  it("shows the server's reason for a wrong temporary password", async () => {
    const { user } = withTemporaryPassword(undefined, {
      changePassword: refuse(400, 'Current password is incorrect'),
    });
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
    let temporary = false;
    mockApi({
      ...signIn(tess),
      me: () => ({ ...tess, mustChangePassword: temporary }),
      stats: (): Answer<'stats'> => (temporary ? CHANGE_REQUIRED : makeUserStats()),
      changePassword: () => {
        temporary = false;
        return noContent();
      },
    });
    const { user, router, queryClient } = renderApp('/dashboard');
    expect(await screen.findByText('Welcome back, tess')).toBeInTheDocument();

    // An administrator resets the password in the meantime; the next call finds out.
    temporary = true;
    await queryClient.invalidateQueries({ queryKey: ['stats'] });
    expect(
      await screen.findByRole('heading', { name: 'Choose your password' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');

    await choose(user, 'Temp-Pass-9', 'my-own-password');
    expect(await screen.findByText('Welcome back, tess')).toBeInTheDocument();
  });
});
