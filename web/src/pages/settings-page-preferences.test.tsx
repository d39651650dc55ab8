import type { Preferences } from '@upshot/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred } from '../test/fetch-mock.ts';
import { makePreferences } from '../test/fixtures.ts';
import { serverError, type Answers } from '../test/mock-api.ts';
import { settingsSection as section } from '../test/queries.ts';
import { renderSettings } from '../test/settings.ts';

/** The preferences as saved: a save answers with what it was sent over what was saved. */
function savedPreferences(initial: Partial<Preferences> = {}) {
  let saved = makePreferences(initial);
  return {
    getPreferences: () => ({ preferences: saved }),
    updatePreferences: ({ body }) => {
      saved = { ...saved, ...body };
      return { preferences: saved };
    },
  } satisfies Answers;
}

describe('Settings page: Preferences', () => {
  it('shows the saved preferences and saves only what changed', async () => {
    const { user, bodies } = renderSettings(savedPreferences({ uploadsPerPage: 30 }));
    const card = await section('Preferences');
    const perPage = await within(card).findByRole('spinbutton', { name: 'Uploads per page' });
    expect(perPage).toHaveValue(30);
    expect(perPage).toHaveAccessibleDescription('A whole number from 10 to 100');
    expect(within(card).getByRole('radiogroup', { name: 'Default upload privacy' })).toBeVisible();
    expect(within(card).getByRole('radio', { name: 'Public' })).toBeChecked();
    expect(within(card).getByRole('radiogroup', { name: 'Theme' })).toBeVisible();
    expect(within(card).getByRole('radio', { name: 'System' })).toBeChecked();
    // What the switch governs: an administrator's emails about new access requests, and mail
    // about one's account.
    const notifications = within(card).getByRole('switch', { name: 'Email notifications' });
    expect(notifications).toBeChecked();
    expect(notifications).toHaveAccessibleDescription(
      'Emails about access requests and your account',
    );
    const save = within(card).getByRole('button', { name: 'Save Preferences' });
    expect(save).toBeDisabled();

    await user.click(within(card).getByRole('radio', { name: 'Private' }));
    await user.click(notifications);
    await user.clear(perPage);
    await user.type(perPage, '50');
    await user.click(save);

    expect(await screen.findByText('Preferences updated')).toBeInTheDocument();
    expect(await bodies('updatePreferences')).toEqual([
      { defaultUploadPrivacy: false, emailNotifications: false, uploadsPerPage: 50 },
    ]);
    expect(within(card).getByRole('radio', { name: 'Private' })).toBeChecked();
    expect(perPage).toHaveValue(50);
    expect(save).toBeDisabled();
  });

  it('saves the defaults for new links: an expiry and a view limit, or none', async () => {
    const { user, bodies } = renderSettings(
      savedPreferences({ defaultExpiry: '12h', defaultMaxViews: null }),
    );
    const card = await section('Preferences');
    const expiry = await within(card).findByRole('combobox', { name: 'Default link expiry' });
    expect(expiry).toHaveDisplayValue('12 hours');
    expect(
      within(expiry)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Never', '1 hour', '12 hours', '1 day', '7 days', '30 days']);
    const limit = within(card).getByRole('textbox', { name: 'Default view limit' });
    expect(limit).toHaveValue('');
    expect(limit).toHaveAccessibleDescription(/empty for no limit/);

    await user.selectOptions(expiry, '7 days');
    for (const typed of ['0', '5e']) {
      await user.clear(limit);
      await user.type(limit, typed);
      expect(limit, typed).toHaveAttribute('aria-invalid', 'true');
      expect(limit).toHaveAccessibleDescription(/this value will not be saved/);
    }
    await user.clear(limit);
    await user.type(limit, '25');
    await user.click(within(card).getByRole('button', { name: 'Save Preferences' }));
    expect(await screen.findByText('Preferences updated')).toBeInTheDocument();

    await user.selectOptions(expiry, 'Never');
    await user.clear(limit);
    await user.click(within(card).getByRole('button', { name: 'Save Preferences' }));
    await waitFor(() => expect(screen.getAllByText('Preferences updated')).toHaveLength(2));
    expect(await bodies('updatePreferences')).toEqual([
      { defaultExpiry: '7d', defaultMaxViews: 25 },
      { defaultExpiry: 'never', defaultMaxViews: null },
    ]);
  });

  it('switches the stripping of photo metadata, on by default', async () => {
    const { user, bodies } = renderSettings(savedPreferences());
    const card = await section('Preferences');
    const strip = await within(card).findByRole('switch', { name: 'Strip photo metadata' });
    expect(strip).toBeChecked();
    expect(strip).toHaveAccessibleDescription(
      'Remove the location, camera and serial number (EXIF, XMP, IPTC) from new pictures; their orientation and colour profile stay',
    );
    await user.click(strip);
    await user.click(within(card).getByRole('button', { name: 'Save Preferences' }));
    expect(await screen.findByText('Preferences updated')).toBeInTheDocument();
    expect(strip).not.toBeChecked();

    await user.click(strip);
    await user.click(within(card).getByRole('button', { name: 'Save Preferences' }));
    await waitFor(() => expect(screen.getAllByText('Preferences updated')).toHaveLength(2));
    expect(strip).toBeChecked();
    expect(await bodies('updatePreferences')).toEqual([
      { stripMetadata: false },
      { stripMetadata: true },
    ]);
  });

  it.each(['5', '101', '150', '12.5', '1e2', ''])(
    'ignores %j for uploads per page: it is not sent',
    async (typed) => {
      const { user, bodies } = renderSettings(savedPreferences());
      const card = await section('Preferences');
      const perPage = await within(card).findByRole('spinbutton', { name: 'Uploads per page' });
      await user.clear(perPage);
      if (typed) await user.type(perPage, typed);
      const save = within(card).getByRole('button', { name: 'Save Preferences' });
      expect(save).toBeDisabled();
      expect(perPage).toHaveAttribute('aria-invalid', 'true');
      expect(perPage).toHaveAccessibleDescription(/This value will not be saved/);

      // Another change still saves, without the page size.
      await user.click(within(card).getByRole('radio', { name: 'Dark' }));
      await user.click(save);
      await screen.findByText('Preferences updated');
      expect(await bodies('updatePreferences')).toEqual([{ theme: 'dark' }]);
    },
  );

  it.each([
    ['10', 10],
    ['100', 100],
    ['042', 42],
  ])('accepts %j as a page size', async (typed, expected) => {
    const { user, bodies } = renderSettings(savedPreferences());
    const card = await section('Preferences');
    const perPage = await within(card).findByRole('spinbutton', { name: 'Uploads per page' });
    await user.clear(perPage);
    await user.type(perPage, typed);
    expect(perPage).not.toHaveAttribute('aria-invalid');
    await user.click(within(card).getByRole('button', { name: 'Save Preferences' }));
    await screen.findByText('Preferences updated');
    expect(await bodies('updatePreferences')).toEqual([{ uploadsPerPage: expected }]);
  });

  it("says 'Failed to update preferences' and keeps the changes when saving fails", async () => {
    const { user } = renderSettings({ updatePreferences: serverError() });
    const card = await section('Preferences');
    await user.click(await within(card).findByRole('radio', { name: 'Light' }));
    await user.click(within(card).getByRole('button', { name: 'Save Preferences' }));
    expect(await screen.findByText('Failed to update preferences')).toBeInTheDocument();
    expect(within(card).getByRole('radio', { name: 'Light' })).toBeChecked();
    expect(within(card).getByRole('button', { name: 'Save Preferences' })).toBeEnabled();
    expect(document.documentElement).toHaveClass('dark');
  });

  it('applies a theme once it is saved: Light is light, System and Dark are dark', async () => {
    const { user } = renderSettings(savedPreferences());
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
    const preferences = savedPreferences();
    const answer = deferred<void>();
    const { user, sent, bodies } = renderSettings({
      ...preferences,
      updatePreferences: async (call) => {
        await answer.promise;
        return preferences.updatePreferences(call);
      },
    });
    const card = await section('Preferences');
    await user.click(await within(card).findByRole('radio', { name: 'Private' }));
    const save = within(card).getByRole('button', { name: 'Save Preferences' });
    await user.click(save);
    await waitFor(() => expect(sent('updatePreferences')).toHaveLength(1));

    await user.click(within(card).getByRole('radio', { name: 'Dark' }));
    answer.resolve();
    await screen.findByText('Preferences updated');
    expect(within(card).getByRole('radio', { name: 'Private' })).toBeChecked();
    expect(within(card).getByRole('radio', { name: 'Dark' })).toBeChecked();

    await waitFor(() => expect(save).toBeEnabled());
    await user.click(save);
    await waitFor(() => expect(sent('updatePreferences')).toHaveLength(2));
    expect((await bodies('updatePreferences'))[1]).toEqual({ theme: 'dark' });
  });
});
