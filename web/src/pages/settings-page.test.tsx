import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makePreferences } from '../test/fixtures.ts';
import { serverError, type Answer } from '../test/mock-api.ts';
import { settingsSection as section } from '../test/queries.ts';
import { alice, renderSettings } from '../test/settings.ts';

describe('Settings page: the sections', () => {
  it('shows the six sections as cards, in the order of the brief', async () => {
    renderSettings();
    await section('Preferences');
    const names = within(screen.getByRole('main'))
      .getAllByRole('region')
      .map((region) => region.getAttribute('aria-labelledby'))
      .map((id) => document.getElementById(id!)?.textContent);
    expect(names).toEqual([
      'Preferences',
      'Change Password',
      'ShareX Configuration',
      'API Token',
      'Account Information',
      'Storage Usage',
    ]);
  });

  it("says 'Failed to load settings' once when its data cannot be loaded, and offers to retry", async () => {
    let preferences: Answer<'getPreferences'> = serverError();
    const { user, sent } = renderSettings({
      getPreferences: () => preferences,
      getUser: serverError(),
    });

    expect(await screen.findByText('Failed to load settings')).toBeInTheDocument();
    const card = await section('Preferences');
    await within(card).findByText('This section could not be loaded.');
    for (const name of ['API Token', 'Account Information', 'Storage Usage']) {
      expect(await section(name)).toHaveTextContent('This section could not be loaded.');
    }
    expect(screen.getAllByText('Failed to load settings')).toHaveLength(1);

    preferences = { preferences: makePreferences() };
    const before = sent('getPreferences').length;
    await user.click(within(card).getByRole('button', { name: 'Try again' }));
    expect(await within(card).findByRole('switch', { name: 'Email notifications' })).toBeChecked();
    expect(sent('getPreferences').length).toBeGreaterThan(before);
  });
});

describe('Settings page: Account Information and Storage Usage', () => {
  it('shows email, username and role, read-only', async () => {
    renderSettings({}, '/settings', {
      ...alice,
      email: 'al@example.com',
      username: 'al',
      role: 'admin',
    });
    const card = await section('Account Information');
    const email = await within(card).findByLabelText('Email');
    expect(email).toHaveValue('al@example.com');
    expect(email).toHaveAttribute('readonly');
    expect(within(card).getByLabelText('Username')).toHaveValue('al');
    expect(within(card).getByLabelText('Username')).toHaveAttribute('readonly');
    expect(within(card).getByText('Admin')).toBeInTheDocument();
  });

  it('shows used and quota in base-1024 units and the percentage to one decimal', async () => {
    renderSettings({}, '/settings', {
      ...alice,
      diskUsed: 1536 * 1024 ** 2,
      diskQuota: 10 * 1024 ** 3,
    });
    const card = await section('Storage Usage');
    expect(await within(card).findByText('1.5 GB')).toBeInTheDocument();
    expect(within(card).getByText(/of 10 GB/)).toBeInTheDocument();
    expect(within(card).getByText('15.0% used')).toBeInTheDocument();
    expect(within(card).getByRole('progressbar', { name: 'Storage used' })).toHaveAttribute(
      'aria-valuenow',
      '15',
    );
  });

  it('caps the bar at 100% when the user is over quota', async () => {
    renderSettings({}, '/settings', {
      ...alice,
      diskUsed: 3 * 1024 ** 2,
      diskQuota: 2 * 1024 ** 2,
    });
    const card = await section('Storage Usage');
    expect(await within(card).findByText('150.0% used')).toBeInTheDocument();
    const bar = within(card).getByRole('progressbar', { name: 'Storage used' });
    expect(bar).toHaveAttribute('aria-valuenow', '100');
    expect(bar.firstElementChild).toHaveStyle({ transform: 'translateX(-0%)' });
  });

  it('reads the user afresh: a change since the session began shows', async () => {
    // Signed in with nothing used; the user read now has 1 KB.
    renderSettings({ getUser: { ...alice, diskUsed: 1024 } }, '/settings', {
      ...alice,
      diskUsed: 0,
    });
    const card = await section('Storage Usage');
    expect(await within(card).findByText('1 KB')).toBeInTheDocument();
  });
});
