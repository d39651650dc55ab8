import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUserStats } from '../test/fixtures.ts';
import { serverError } from '../test/mock-api.ts';
import { currentUrl } from '../test/render-app.tsx';
import { alice, renderSettings } from '../test/settings.ts';

describe('Profile page', () => {
  it('shows the account: initials, username, email, role and the date joined', async () => {
    renderSettings({}, '/profile', { ...alice, createdAt: '2024-03-05T14:07:00Z' });
    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('heading', { name: 'alice' })).toBeInTheDocument();
    expect(within(main).getByText('AL')).toBeInTheDocument();
    expect(within(main).getByText('alice@example.com')).toBeInTheDocument();
    expect(within(main).getByText('User')).toBeInTheDocument();
    expect(within(main).getByText(/Member since/)).toHaveTextContent('Member since Mar 5, 2024');
  });

  it("shows the user's totals: uploads and views from the statistics, storage from the user", async () => {
    renderSettings({ stats: makeUserStats({ totalUploads: 1234, totalViews: 56 }) }, '/profile', {
      ...alice,
      diskUsed: 5 * 1024 ** 2,
      diskQuota: 1024 ** 3,
    });
    const totals = await screen.findByRole('region', { name: 'Your totals' });
    const value = (label: string) =>
      within(totals).getByText(label).closest('div')!.querySelector('dd')!.textContent;
    await waitFor(() => expect(value('Uploads')).toBe('1,234'));
    expect(value('Views')).toBe('56');
    expect(value('Storage used')).toBe('5 MB');
    expect(within(totals).getByText('of 1 GB')).toBeInTheDocument();
  });

  it("says 'Failed to load statistics' when they cannot be loaded, and still shows the account", async () => {
    renderSettings({ stats: serverError() }, '/profile');
    expect(await screen.findByText('Failed to load statistics')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'alice' })).toBeInTheDocument();
  });

  it('links to Settings and to its sections', async () => {
    const { user, router } = renderSettings({}, '/profile');
    const links = await screen.findByRole('navigation', { name: 'Settings' });
    expect(
      within(links)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual([
      '/settings#preferences',
      '/settings#password',
      '/settings#desktop',
      '/settings#api-token',
    ]);

    await user.click(within(screen.getByRole('main')).getByRole('link', { name: 'Settings' }));
    await screen.findByRole('heading', { name: 'Settings' });
    expect(currentUrl(router)).toBe('/settings');
  });

  it('is reached from the avatar menu', async () => {
    const { user, router } = renderSettings({}, '/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Profile' }));
    await screen.findByRole('heading', { name: 'Profile' });
    expect(currentUrl(router)).toBe('/profile');
  });
});
