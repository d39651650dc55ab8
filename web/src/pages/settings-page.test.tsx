import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../test/fetch-mock.ts';
import {
  FIRST_TOKEN,
  fakeSettingsServer,
  renderWithSettingsServer,
  serverError,
} from '../test/settings-server.ts';

const section = (name: string) => screen.findByRole('region', { name });

describe('Settings page: the sections', () => {
  it('shows the six sections as cards, in the order of the brief', async () => {
    renderWithSettingsServer(fakeSettingsServer());
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
    const server = fakeSettingsServer();
    server.fail.getPreferences = serverError;
    server.fail.getUser = serverError;
    const { user, sent } = renderWithSettingsServer(server);

    expect(await screen.findByText('Failed to load settings')).toBeInTheDocument();
    const preferences = await section('Preferences');
    await within(preferences).findByText('This section could not be loaded.');
    expect(screen.getAllByText('Failed to load settings')).toHaveLength(1);

    delete server.fail.getPreferences;
    const before = sent('GET', '/api/preferences').length;
    await user.click(within(preferences).getByRole('button', { name: 'Try again' }));
    expect(
      await within(preferences).findByRole('switch', { name: 'Email notifications' }),
    ).toBeChecked();
    expect(sent('GET', '/api/preferences').length).toBeGreaterThan(before);
  });
});

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

    await user.click(within(card).getByRole('radio', { name: 'System' }));
    await user.click(within(card).getByRole('button', { name: 'Save Preferences' }));
    await waitFor(() => expect(html).toHaveClass('dark'));
    expect(html.style.colorScheme).toBe('dark');
  });
});

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

  it('checks the form with the texts of the brief before sending anything', async () => {
    const { user, writes } = renderWithSettingsServer(fakeSettingsServer());
    const form = await passwordForm();

    await user.click(form.submit);
    expect(within(form.card).getByText('Current password is required')).toBeInTheDocument();
    expect(
      within(form.card).getByText('Password must be at least 8 characters'),
    ).toBeInTheDocument();
    expect(form.current).toHaveAttribute('aria-invalid', 'true');

    await user.type(form.current, 'old-password');
    await user.type(form.next, 'short');
    await user.type(form.confirm, 'short');
    await user.click(form.submit);
    expect(within(form.card).queryByText('Current password is required')).not.toBeInTheDocument();
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
    const server = fakeSettingsServer();
    const { user, sent } = renderWithSettingsServer(server);
    const form = await passwordForm();
    await user.type(form.current, 'old-password');
    await user.type(form.next, 'new-password-1');
    await user.type(form.confirm, 'new-password-1');
    await user.click(form.submit);

    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument();
    const request = sent('POST', '/api/users/u1/change-password')[0]!;
    expect(await request.json()).toEqual({
      currentPassword: 'old-password',
      newPassword: 'new-password-1',
    });
    expect(server.password).toBe('new-password-1');
    expect(form.current).toHaveValue('');
    expect(form.next).toHaveValue('');
    expect(form.confirm).toHaveValue('');
    expect(within(form.card).queryByText(/must be at least/)).not.toBeInTheDocument();
  });

  it("shows the server's reason when it refuses, and keeps what was typed", async () => {
    const { user } = renderWithSettingsServer(fakeSettingsServer());
    const form = await passwordForm();
    await user.type(form.current, 'wrong-password');
    await user.type(form.next, 'new-password-1');
    await user.type(form.confirm, 'new-password-1');
    await user.click(form.submit);
    expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();
    expect(form.current).toHaveValue('wrong-password');
  });

  it("says 'Failed to change password' when the answer has no message", async () => {
    const server = fakeSettingsServer();
    server.fail.changePassword = () => new Response('<html>Bad gateway</html>', { status: 502 });
    const { user } = renderWithSettingsServer(server);
    const form = await passwordForm();
    await user.type(form.current, 'old-password');
    await user.type(form.next, 'new-password-1');
    await user.type(form.confirm, 'new-password-1');
    await user.click(form.submit);
    expect(await screen.findByText('Failed to change password')).toBeInTheDocument();
  });
});

describe('Settings page: ShareX Configuration', () => {
  let saved: { href: string; download: string }[];
  let blobs: Blob[];

  beforeEach(() => {
    saved = [];
    blobs = [];
    Object.defineProperty(URL, 'createObjectURL', {
      configurable: true,
      value: vi.fn((blob: Blob) => {
        blobs.push(blob);
        return `blob:http://localhost/${blobs.length}`;
      }),
    });
    Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: vi.fn() });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push({ href: this.href, download: this.download });
    });
  });

  it('explains each download, with the ShareX limit of the brief', async () => {
    renderWithSettingsServer(fakeSettingsServer());
    const card = await section('ShareX Configuration');
    expect(
      within(card).getByText(
        /The ShareX limit is 100 MB, imposed by the CDN; larger files should use the web uploader or the PowerShell script/,
      ),
    ).toBeInTheDocument();
    expect(within(card).getByText(/files over 100 MB go in chunks/)).toBeInTheDocument();
  });

  it('downloads the ShareX config with the session and saves it under the name the server gives', async () => {
    const { user, sent } = renderWithSettingsServer(fakeSettingsServer());
    const card = await section('ShareX Configuration');
    await user.click(within(card).getByRole('button', { name: 'Download ShareX config' }));

    await waitFor(() =>
      expect(saved).toEqual([{ href: 'blob:http://localhost/1', download: 'upshot-alice.sxcu' }]),
    );
    const request = sent('GET', '/api/upload/sharex-config')[0]!;
    expect(request.headers.get('Authorization')).toBe('Bearer tok');
    expect(JSON.parse(await blobs[0]!.text())).toEqual({ Headers: { 'X-API-Token': FIRST_TOKEN } });
  });

  it('downloads the bash and PowerShell scripts of the signed-in user', async () => {
    const { user, sent } = renderWithSettingsServer(fakeSettingsServer());
    const card = await section('ShareX Configuration');
    await user.click(within(card).getByRole('button', { name: 'Download bash script' }));
    await waitFor(() => expect(saved.map((s) => s.download)).toEqual(['upshot-alice.sh']));
    await user.click(within(card).getByRole('button', { name: 'Download PowerShell script' }));
    await waitFor(() =>
      expect(saved.map((s) => s.download)).toEqual(['upshot-alice.sh', 'upshot-alice.ps1']),
    );
    expect(sent('GET', '/api/users/u1/bash-script')).toHaveLength(1);
    expect(sent('GET', '/api/users/u1/powershell-script')).toHaveLength(1);
  });

  it("says 'Failed to download config' when a download fails", async () => {
    const server = fakeSettingsServer();
    server.fail.download = serverError;
    const { user } = renderWithSettingsServer(server);
    const card = await section('ShareX Configuration');
    await user.click(within(card).getByRole('button', { name: 'Download PowerShell script' }));
    expect(await screen.findByText('Failed to download config')).toBeInTheDocument();
    expect(saved).toEqual([]);
  });
});

describe('Settings page: API Token', () => {
  const last4 = FIRST_TOKEN.slice(-4);

  it('shows the token masked but for its last four characters, and reveals it on demand', async () => {
    const { user } = renderWithSettingsServer(fakeSettingsServer());
    const card = await section('API Token');
    const field = await within(card).findByLabelText('API token');
    expect(field).toHaveTextContent(`••••••••••••${last4}`);
    expect(card).not.toHaveTextContent(FIRST_TOKEN);

    await user.click(within(card).getByRole('button', { name: 'Show API token' }));
    expect(field).toHaveTextContent(FIRST_TOKEN);
    await user.click(within(card).getByRole('button', { name: 'Hide API token' }));
    expect(card).not.toHaveTextContent(FIRST_TOKEN);
  });

  it("copies the whole token and says 'API token copied to clipboard'", async () => {
    const { user } = renderWithSettingsServer(fakeSettingsServer());
    const card = await section('API Token');
    await within(card).findByLabelText('API token');
    await user.click(within(card).getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('API token copied to clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(FIRST_TOKEN);
  });

  it('regenerates only after confirming, warning that the old token and configs stop working', async () => {
    const server = fakeSettingsServer();
    const { user, writes } = renderWithSettingsServer(server);
    const card = await section('API Token');
    await within(card).findByLabelText('API token');

    await user.click(within(card).getByRole('button', { name: 'Regenerate' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Regenerate API token?' });
    expect(dialog).toHaveTextContent(/current token stops working at once/);
    expect(dialog).toHaveTextContent(/ShareX configuration and scripts/);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(writes()).toEqual([]);

    await user.click(within(card).getByRole('button', { name: 'Regenerate' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Regenerate API token?' });
    await user.click(within(dialog).getByRole('button', { name: 'Regenerate' }));
    expect(await screen.findByText('API token regenerated')).toBeInTheDocument();
    expect(writes()).toEqual(['POST /api/users/u1/api-token']);
    expect(within(card).getByLabelText('API token')).toHaveTextContent(
      `••••••••••••${server.user.apiToken.slice(-4)}`,
    );

    await user.click(within(card).getByRole('button', { name: 'Copy' }));
    await waitFor(async () =>
      expect(await navigator.clipboard.readText()).toBe(server.user.apiToken),
    );
  });

  it('says so when regenerating fails, and keeps the token shown', async () => {
    const server = fakeSettingsServer();
    server.fail.regenerateApiToken = serverError;
    const { user } = renderWithSettingsServer(server);
    const card = await section('API Token');
    await within(card).findByLabelText('API token');
    await user.click(within(card).getByRole('button', { name: 'Regenerate' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Regenerate' }));
    expect(await screen.findByText('Failed to regenerate API token')).toBeInTheDocument();
    expect(within(card).getByLabelText('API token')).toHaveTextContent(last4);
  });
});

describe('Settings page: Account Information and Storage Usage', () => {
  it('shows email, username and role, read-only', async () => {
    renderWithSettingsServer(
      fakeSettingsServer({ user: { email: 'al@example.com', username: 'al', role: 'admin' } }),
    );
    const card = await section('Account Information');
    const email = await within(card).findByLabelText('Email');
    expect(email).toHaveValue('al@example.com');
    expect(email).toHaveAttribute('readonly');
    expect(within(card).getByLabelText('Username')).toHaveValue('al');
    expect(within(card).getByLabelText('Username')).toHaveAttribute('readonly');
    expect(within(card).getByText('Admin')).toBeInTheDocument();
  });

  it('shows used and quota in base-1024 units and the percentage to one decimal', async () => {
    renderWithSettingsServer(
      fakeSettingsServer({ user: { diskUsed: 1536 * 1024 ** 2, diskQuota: 10 * 1024 ** 3 } }),
    );
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
    renderWithSettingsServer(
      fakeSettingsServer({ user: { diskUsed: 3 * 1024 ** 2, diskQuota: 2 * 1024 ** 2 } }),
    );
    const card = await section('Storage Usage');
    expect(await within(card).findByText('150.0% used')).toBeInTheDocument();
    const bar = within(card).getByRole('progressbar', { name: 'Storage used' });
    expect(bar).toHaveAttribute('aria-valuenow', '100');
    expect(bar.firstElementChild).toHaveStyle({ transform: 'translateX(-0%)' });
  });

  it('reads the user afresh: a change since the session began shows', async () => {
    const server = fakeSettingsServer({ user: { diskUsed: 0 } });
    server.handlers['GET /api/users/:id'] = () =>
      jsonResponse(200, { ...server.user, diskUsed: 1024 });
    renderWithSettingsServer(server);
    const card = await section('Storage Usage');
    expect(await within(card).findByText('1 KB')).toBeInTheDocument();
  });
});
