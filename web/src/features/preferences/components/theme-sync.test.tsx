import type { Theme } from '@upshot/contract';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { deferred } from '../../../test/fetch-mock.ts';
import { makePreferences } from '../../../test/fixtures.ts';
import { serverError } from '../../../test/mock-api.ts';
import { renderSettings } from '../../../test/settings.ts';

const html = document.documentElement;
const preferences = (theme: Theme) => ({ preferences: makePreferences({ theme }) });

describe('the theme preference', () => {
  beforeEach(() => {
    // As index.html paints the first frame.
    html.className = 'dark';
    html.style.colorScheme = 'dark';
  });

  it('turns a signed-in screen light once the preferences say Light', async () => {
    const answer = deferred<void>();
    renderSettings(
      {
        getPreferences: async () => {
          await answer.promise;
          return preferences('light');
        },
      },
      '/dashboard',
    );
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(html).toHaveClass('dark'); // dark until the preferences arrive

    answer.resolve();
    await waitFor(() => expect(html).not.toHaveClass('dark'));
    expect(html.style.colorScheme).toBe('light');
  });

  it.each(['system', 'dark'] as const)('keeps %s dark', async (theme) => {
    const { sent } = renderSettings({ getPreferences: preferences(theme) }, '/dashboard');
    await waitFor(() => expect(sent('getPreferences')).toHaveLength(1));
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(html).toHaveClass('dark');
    expect(html.style.colorScheme).toBe('dark');
  });

  it('stays dark when the preferences cannot be loaded', async () => {
    const { sent } = renderSettings({ getPreferences: serverError() }, '/dashboard');
    await waitFor(() => expect(sent('getPreferences').length).toBeGreaterThan(0));
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(html).toHaveClass('dark');
  });

  it('goes back to dark on signing out', async () => {
    const { user } = renderSettings({ getPreferences: preferences('light') }, '/dashboard');
    await waitFor(() => expect(html).not.toHaveClass('dark'));
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    await screen.findByText('Welcome back');
    expect(html).toHaveClass('dark');
    expect(html.style.colorScheme).toBe('dark');
  });
});
