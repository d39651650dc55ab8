import { screen, waitFor, within } from '@testing-library/react';
import type { User } from '@upshot/contract';
import { describe, expect, it } from 'vitest';
import { makeUser, makeUserStats } from '../../test/fixtures.ts';
import { mockApi, serverError, signIn, type Answers } from '../../test/mock-api.ts';
import { renderApp } from '../../test/render-app.tsx';

function signedIn(user: User, answers: Answers = {}) {
  return mockApi({ ...signIn(user), stats: makeUserStats(), ...answers });
}

describe('navbar', () => {
  it('links Dashboard and Uploads, highlights the current one, and hides Admin from users', async () => {
    signedIn(makeUser());
    renderApp('/uploads');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'href',
      '/dashboard',
    );
    expect(within(nav).getByRole('link', { name: 'Uploads' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute(
      'aria-current',
    );
    expect(within(nav).queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
    expect(screen.getByText('Upshot')).toBeInTheDocument();
  });

  it("folds the links into an 'Open menu' button for small screens", async () => {
    signedIn(makeUser({ role: 'admin' }));
    const { user, router } = renderApp('/dashboard');

    const trigger = await screen.findByRole('button', { name: 'Open menu' });
    expect(trigger).toHaveClass('sm:hidden');
    expect(screen.getByRole('navigation', { name: 'Main' })).toHaveClass('hidden', 'sm:flex');

    await user.click(trigger);
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Dashboard', 'Uploads', 'Admin']);
    expect(within(menu).getByRole('menuitem', { name: 'Dashboard' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await user.click(within(menu).getByRole('menuitem', { name: 'Uploads' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/uploads'));
  });

  it('leaves Admin out of the small-screen menu for users', async () => {
    signedIn(makeUser());
    const { user } = renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).queryByRole('menuitem', { name: 'Admin' })).not.toBeInTheDocument();
    expect(within(menu).getAllByRole('menuitem')).toHaveLength(2);
  });

  it('shows the Admin link to admins', async () => {
    signedIn(makeUser({ role: 'admin' }));
    renderApp('/dashboard');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');
  });
});

describe('account menu', () => {
  it('shows initials, then username, email, Profile and Settings', async () => {
    signedIn(makeUser({ username: 'bob', email: 'bob@example.com' }));
    const { user, router } = renderApp('/dashboard');

    const trigger = await screen.findByRole('button', { name: 'Account menu' });
    expect(trigger).toHaveTextContent('BO');

    await user.click(trigger);
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('bob')).toBeInTheDocument();
    expect(within(menu).getByText('bob@example.com')).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Settings' })).toHaveAttribute(
      'href',
      '/settings',
    );
    expect(within(menu).getByRole('menuitem', { name: 'Logout' })).toBeInTheDocument();

    await user.click(within(menu).getByRole('menuitem', { name: 'Profile' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();
  });

  it("uses the email's first letters when there is no username", async () => {
    signedIn(makeUser({ username: '', email: 'zoe@example.com' }));
    renderApp('/dashboard');
    expect(await screen.findByRole('button', { name: 'Account menu' })).toHaveTextContent('ZO');
  });

  it('does not bring a user who logged out back to the page they left when they sign in again', async () => {
    signedIn(makeUser());
    const { user, router } = renderApp('/uploads?type=images');
    await user.click(await screen.findByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.state).toBeNull();
  });

  it('logs out through the server, clears the session and lands on /login', async () => {
    const { sent } = signedIn(makeUser());
    const { user, router } = renderApp('/dashboard');

    await user.click(await screen.findByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));

    expect(await screen.findByText('Logged out successfully')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    const [logout] = sent('logout');
    expect(logout?.headers.get('Authorization')).toBe('Bearer tok');
    expect(localStorage.getItem('auth_token')).toBeNull();
  });

  it("still signs out locally when the server call fails, with 'Failed to logout'", async () => {
    signedIn(makeUser(), { logout: serverError() });
    const { user, router } = renderApp('/dashboard');

    await user.click(await screen.findByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));

    expect(await screen.findByText('Failed to logout')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('auth_token')).toBeNull();
  });
});
