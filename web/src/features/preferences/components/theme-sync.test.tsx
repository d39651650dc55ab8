import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { deferred } from '../../../test/fetch-mock.ts';
import {
  fakeSettingsServer,
  renderWithSettingsServer,
  serverError,
} from '../../../test/settings-server.ts';

const html = document.documentElement;

describe('the theme preference', () => {
  beforeEach(() => {
    // As index.html paints the first frame.
    html.className = 'dark';
    html.style.colorScheme = 'dark';
  });

  it('turns a signed-in screen light once the preferences say Light', async () => {
    const server = fakeSettingsServer({ preferences: { theme: 'light' } });
    const answer = deferred<Response>();
    const respond = server.handlers['GET /api/preferences']!;
    server.handlers['GET /api/preferences'] = async (request, params) => {
      await answer.promise;
      return respond(request, params);
    };
    renderWithSettingsServer(server, '/dashboard');
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(html).toHaveClass('dark'); // dark until the preferences arrive

    answer.resolve(new Response());
    await waitFor(() => expect(html).not.toHaveClass('dark'));
    expect(html.style.colorScheme).toBe('light');
  });

  it.each(['system', 'dark'] as const)('keeps %s dark', async (theme) => {
    const { sent } = renderWithSettingsServer(
      fakeSettingsServer({ preferences: { theme } }),
      '/dashboard',
    );
    await waitFor(() => expect(sent('GET', '/api/preferences')).toHaveLength(1));
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(html).toHaveClass('dark');
    expect(html.style.colorScheme).toBe('dark');
  });

  it('stays dark when the preferences cannot be loaded', async () => {
    const server = fakeSettingsServer({ preferences: { theme: 'light' } });
    server.fail.getPreferences = serverError;
    const { sent } = renderWithSettingsServer(server, '/dashboard');
    await waitFor(() => expect(sent('GET', '/api/preferences').length).toBeGreaterThan(0));
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(html).toHaveClass('dark');
  });

  it('goes back to dark on signing out', async () => {
    const { user } = renderWithSettingsServer(
      fakeSettingsServer({ preferences: { theme: 'light' } }),
      '/dashboard',
    );
    await waitFor(() => expect(html).not.toHaveClass('dark'));
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    await screen.findByText('Welcome back');
    expect(html).toHaveClass('dark');
    expect(html.style.colorScheme).toBe('dark');
  });
});
