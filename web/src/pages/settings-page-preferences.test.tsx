import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred } from '../test/fetch-mock.ts';
import {
  fakeSettingsServer,
  renderWithSettingsServer,
  serverError,
  settingsSection as section,
} from '../test/settings-server.ts';

describe('Settings page: Preferences', () => {
  it('shows the saved preferences and saves only what changed', async () => {
    const server = fakeSettingsServer({ preferences: { uploadsPerPage: 30 } });
    const { user, sent } = renderWithSettingsServer(server);
    const card = await section('Preferences');
    const perPage = await within(card).findByRole('spinbutton', { name: 'Uploads per page' });
    expect(perPage).toHaveValue(30);
    expect(within(card).getByRole('radio', { name: 'Public' })).toBeChecked();
    expect(within(card).getByRole('radio', { name: 'System' })).toBeChecked();
    expect(within(card).getByRole('switch', { name: 'Email notifications' })).toBeChecked();
    // What the switch governs: an administrator's emails about new access requests, and mail
    // about one's account.
    expect(
      within(card).getByText('Emails about access requests and your account'),
    ).toBeInTheDocument();
    const save = within(card).getByRole('button', { name: 'Save Preferences' });
    expect(save).toBeDisabled();

    await user.click(within(card).getByRole('radio', { name: 'Private' }));
    await user.click(within(card).getByRole('switch', { name: 'Email notifications' }));
    await user.clear(perPage);
    await user.type(perPage, '50');
    await user.click(save);

    expect(await screen.findByText('Preferences updated')).toBeInTheDocument();
    const patches = sent('PATCH', '/api/preferences');
    expect(patches).toHaveLength(1);
    expect(await patches[0]!.json()).toEqual({
      defaultUploadPrivacy: false,
      emailNotifications: false,
      uploadsPerPage: 50,
    });
    expect(within(card).getByRole('radio', { name: 'Private' })).toBeChecked();
    expect(perPage).toHaveValue(50);
    expect(save).toBeDisabled();
  });

  it.each(['5', '101', '150', '12.5', '1e2', ''])(
    'ignores %j for uploads per page: it is not sent',
    async (typed) => {
      const server = fakeSettingsServer();
      const { user, sent } = renderWithSettingsServer(server);
      const card = await section('Preferences');
      const perPage = await within(card).findByRole('spinbutton', { name: 'Uploads per page' });
      await user.clear(perPage);
      if (typed) await user.type(perPage, typed);
      const save = within(card).getByRole('button', { name: 'Save Preferences' });
      expect(save).toBeDisabled();
      expect(perPage).toHaveAttribute('aria-invalid', 'true');

      // Another change still saves, without the page size.
      await user.click(within(card).getByRole('radio', { name: 'Dark' }));
      await user.click(save);
      await screen.findByText('Preferences updated');
      expect(await sent('PATCH', '/api/preferences')[0]!.json()).toEqual({ theme: 'dark' });
      expect(server.preferences.uploadsPerPage).toBe(20);
    },
  );

  it.each([
    ['10', 10],
    ['100', 100],
    ['042', 42],
  ])('accepts %j as a page size', async (typed, expected) => {
    const { user, sent } = renderWithSettingsServer(fakeSettingsServer());
    const card = await section('Preferences');
    const perPage = await within(card).findByRole('spinbutton', { name: 'Uploads per page' });
    await user.clear(perPage);
    await user.type(perPage, typed);
    await user.click(within(card).getByRole('button', { name: 'Save Preferences' }));
    await screen.findByText('Preferences updated');
    expect(await sent('PATCH', '/api/preferences')[0]!.json()).toEqual({
      uploadsPerPage: expected,
    });
  });

  it("says 'Failed to update preferences' and keeps the changes when saving fails", async () => {
    const server = fakeSettingsServer();
    server.fail.updatePreferences = serverError;
    const { user } = renderWithSettingsServer(server);
    const card = await section('Preferences');
    await user.click(await within(card).findByRole('radio', { name: 'Light' }));
    await user.click(within(card).getByRole('button', { name: 'Save Preferences' }));
    expect(await screen.findByText('Failed to update preferences')).toBeInTheDocument();
    expect(within(card).getByRole('radio', { name: 'Light' })).toBeChecked();
    expect(within(card).getByRole('button', { name: 'Save Preferences' })).toBeEnabled();
    expect(document.documentElement).toHaveClass('dark');
  });

  it('applies a theme once it is saved: Light is light, System and Dark are dark', async () => {
    const { user } = renderWithSettingsServer(fakeSettingsServer());
    const card = await section('Preferences');
    const html = document.documentElement;
    await waitFor(() => expect(html).toHaveClass('dark'));

    await user.click(await within(card).findByRole('radio', { name: 'Light' }));
    expect(html).toHaveClass('dark'); // not before saving
    await user.click(within(card).getByRole('button', { name: 'Save Preferences' }));
    await waitFor(() => expect(html).not.toHaveClass('dark'));
    expect(html.style.colorScheme).toBe('light');
    // The toasts follow the palette.
    const toaster = () => document.querySelector('[data-sonner-toaster]');
    await waitFor(() => expect(toaster()).toHaveAttribute('data-sonner-theme', 'light'));

    await user.click(within(card).getByRole('radio', { name: 'System' }));
    await user.click(within(card).getByRole('button', { name: 'Save Preferences' }));
    await waitFor(() => expect(html).toHaveClass('dark'));
    expect(html.style.colorScheme).toBe('dark');
    await waitFor(() => expect(toaster()).toHaveAttribute('data-sonner-theme', 'dark'));
  });

  it('keeps what is changed while a save is on its way, to save next', async () => {
    const server = fakeSettingsServer();
    const patch = server.handlers['PATCH /api/preferences']!;
    const answer = deferred<void>();
    server.handlers['PATCH /api/preferences'] = async (request, params) => {
      await answer.promise;
      return patch(request, params);
    };
    const { user, sent } = renderWithSettingsServer(server);
    const card = await section('Preferences');
    await user.click(await within(card).findByRole('radio', { name: 'Private' }));
    const save = within(card).getByRole('button', { name: 'Save Preferences' });
    await user.click(save);
    await waitFor(() => expect(sent('PATCH', '/api/preferences')).toHaveLength(1));

    await user.click(within(card).getByRole('radio', { name: 'Dark' }));
    answer.resolve();
    await screen.findByText('Preferences updated');
    expect(within(card).getByRole('radio', { name: 'Private' })).toBeChecked();
    expect(within(card).getByRole('radio', { name: 'Dark' })).toBeChecked();

    await waitFor(() => expect(save).toBeEnabled());
    await user.click(save);
    await waitFor(() => expect(sent('PATCH', '/api/preferences')).toHaveLength(2));
    expect(await sent('PATCH', '/api/preferences')[1]!.json()).toEqual({ theme: 'dark' });
  });
});
