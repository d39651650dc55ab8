import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { noContent, refuse } from '../test/mock-api.ts';
import { settingsSection as section } from '../test/queries.ts';
import { alice, renderSettings } from '../test/settings.ts';

describe('Settings page: Change Password', () => {
  async function passwordForm() {
    const card = await section('Change Password');
    return {
      card,
      current: within(card).getByLabelText('Current password'),
      next: within(card).getByLabelText('New password'),
      confirm: within(card).getByLabelText('Confirm new password'),
      submit: within(card).getByRole('button', { name: 'Change Password' }),
    };
  }

  async function fill(user: ReturnType<typeof renderSettings>['user'], current: string) {
    const form = await passwordForm();
    await user.type(form.current, current);
    await user.type(form.next, 'new-password-1');
    await user.type(form.confirm, 'new-password-1');
    await user.click(form.submit);
    return form;
  }

  it('checks the form with the texts of the brief before sending anything', async () => {
    const { user, writes } = renderSettings();
    const form = await passwordForm();

    await user.click(form.submit);
    expect(within(form.card).getByText('Current password is required')).toBeInTheDocument();
    expect(
      within(form.card).getByText('Password must be at least 8 characters'),
    ).toBeInTheDocument();
    expect(form.current).toHaveAttribute('aria-invalid', 'true');
    expect(form.current).toHaveAccessibleDescription('Current password is required');

    await user.type(form.current, 'old-password');
    await user.type(form.next, 'short');
    await user.type(form.confirm, 'short');
    await user.click(form.submit);
    expect(within(form.card).queryByText('Current password is required')).not.toBeInTheDocument();
    expect(form.current).not.toHaveAttribute('aria-invalid');
    expect(
      within(form.card).getByText('Password must be at least 8 characters'),
    ).toBeInTheDocument();

    await user.type(form.next, '-but-longer');
    await user.click(form.submit);
    expect(within(form.card).getByText('New passwords do not match')).toBeInTheDocument();
    expect(form.confirm).toHaveAttribute('aria-invalid', 'true');
    expect(writes()).toEqual([]);
  });

  it("changes the password, says 'Password changed successfully' and clears the form", async () => {
    const { user, sent, bodies } = renderSettings({ changePassword: noContent() });
    const form = await fill(user, 'old-password');

    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument();
    expect(new URL(sent('changePassword')[0]!.url).pathname).toBe('/api/users/u1/change-password');
    expect(await bodies('changePassword')).toEqual([
      { currentPassword: 'old-password', newPassword: 'new-password-1' },
    ]);
    expect(form.current).toHaveValue('');
    expect(form.next).toHaveValue('');
    expect(form.confirm).toHaveValue('');
    expect(within(form.card).queryByText(/must be at least/)).not.toBeInTheDocument();
  });

  it("shows the server's reason when it refuses, and keeps what was typed", async () => {
    const { user } = renderSettings({
      changePassword: refuse(400, 'Current password is incorrect'),
    });
    const form = await fill(user, 'wrong-password');
    expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();
    expect(form.current).toHaveValue('wrong-password');
  });

  it("says 'Failed to change password' when the answer has no message", async () => {
    const { user } = renderSettings({
      changePassword: new Response('<html>Bad gateway</html>', { status: 502 }),
    });
    await fill(user, 'old-password');
    expect(await screen.findByText('Failed to change password')).toBeInTheDocument();
  });

  it('gives password managers the email as the account (one signs in by email)', async () => {
    renderSettings({}, '/settings', { ...alice, email: 'al@example.com', username: 'al' });
    const form = await passwordForm();
    const account = form.card.querySelector('input[autocomplete="username"]');
    expect(account).toHaveValue('al@example.com');
    expect(account).not.toBeVisible();
  });
});
