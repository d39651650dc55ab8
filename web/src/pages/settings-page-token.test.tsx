// Settings' sections about the API token: the ShareX config and scripts that hold it, and the
// token itself.
import type { UserWithToken } from '@upshot/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred } from '../test/fetch-mock.ts';
import { file, serverError } from '../test/mock-api.ts';
import { settingsSection as section } from '../test/queries.ts';
import { alice, FIRST_TOKEN, renderSettings } from '../test/settings.ts';

const NEW_TOKEN = 'upt_regenerated-token-1-wxyz';
const path = (request: Request) => new URL(request.url).pathname;

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
    renderSettings();
    const card = await section('ShareX Configuration');
    expect(
      within(card).getByText(
        /The ShareX limit is 100 MB, imposed by the CDN; larger files should use the web uploader or the PowerShell script/,
      ),
    ).toBeInTheDocument();
    expect(within(card).getByText(/files over 100 MB go in chunks/)).toBeInTheDocument();
  });

  it('downloads the ShareX config with the session and saves it under the name the server gives', async () => {
    const config = JSON.stringify({ Headers: { 'X-API-Token': FIRST_TOKEN } });
    const { user, sent } = renderSettings({
      userSharexConfig: file('upshot-alice.sxcu', 'application/json', config),
    });
    const card = await section('ShareX Configuration');
    await user.click(within(card).getByRole('button', { name: 'Download ShareX config' }));

    await waitFor(() =>
      expect(saved).toEqual([{ href: 'blob:http://localhost/1', download: 'upshot-alice.sxcu' }]),
    );
    const [request] = sent('userSharexConfig');
    expect(path(request!)).toBe('/api/users/u1/sharex-config');
    expect(request!.headers.get('Authorization')).toBe('Bearer tok');
    expect(await blobs[0]!.text()).toBe(config);
  });

  it('downloads the bash and PowerShell scripts of the signed-in user', async () => {
    const { user, sent } = renderSettings({
      userBashScript: file('upshot-alice.sh', 'text/x-shellscript', '#!/bin/bash'),
      userPowershellScript: file('upshot-alice.ps1', 'text/plain', 'param()'),
    });
    const card = await section('ShareX Configuration');
    await user.click(within(card).getByRole('button', { name: 'Download bash script' }));
    await waitFor(() => expect(saved.map((s) => s.download)).toEqual(['upshot-alice.sh']));
    await user.click(within(card).getByRole('button', { name: 'Download PowerShell script' }));
    await waitFor(() =>
      expect(saved.map((s) => s.download)).toEqual(['upshot-alice.sh', 'upshot-alice.ps1']),
    );
    expect(sent('userBashScript').map(path)).toEqual(['/api/users/u1/bash-script']);
    expect(sent('userPowershellScript').map(path)).toEqual(['/api/users/u1/powershell-script']);
  });

  it("says 'Failed to download config' when a download fails", async () => {
    const { user } = renderSettings({ userPowershellScript: serverError() });
    const card = await section('ShareX Configuration');
    await user.click(within(card).getByRole('button', { name: 'Download PowerShell script' }));
    expect(await screen.findByText('Failed to download config')).toBeInTheDocument();
    expect(saved).toEqual([]);
  });
});

describe('Settings page: API Token', () => {
  const masked = (token: string) => `••••••••••••${token.slice(-4)}`;
  /** A read-only text box, so a screen reader reads its label with it. */
  const tokenField = (card: HTMLElement) =>
    within(card).findByRole('textbox', { name: 'API token' });

  it('shows the token masked but for its last four characters, and reveals it on demand', async () => {
    const { user } = renderSettings();
    const card = await section('API Token');
    const field = await tokenField(card);
    expect(field).toHaveAttribute('readonly');
    expect(field).toHaveValue(masked(FIRST_TOKEN));
    expect(card).not.toHaveTextContent(FIRST_TOKEN);

    await user.click(within(card).getByRole('button', { name: 'Show API token' }));
    expect(field).toHaveValue(FIRST_TOKEN);
    await user.click(within(card).getByRole('button', { name: 'Hide API token' }));
    expect(field).toHaveValue(masked(FIRST_TOKEN));
  });

  it("copies the whole token and says 'API token copied to clipboard'", async () => {
    const { user } = renderSettings();
    const card = await section('API Token');
    await tokenField(card);
    await user.click(within(card).getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('API token copied to clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(FIRST_TOKEN);
  });

  it("says 'Failed to copy API token' when the clipboard refuses it", async () => {
    const { user } = renderSettings();
    const card = await section('API Token');
    await tokenField(card);
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValueOnce(new Error('denied'));
    await user.click(within(card).getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Failed to copy API token')).toBeInTheDocument();
  });

  it('regenerates only after confirming, warning that the old token and configs stop working', async () => {
    const { user, writes } = renderSettings({ regenerateApiToken: { apiToken: NEW_TOKEN } });
    const card = await section('API Token');
    const field = await tokenField(card);

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
    expect(field).toHaveValue(masked(NEW_TOKEN));

    await user.click(within(card).getByRole('button', { name: 'Copy' }));
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe(NEW_TOKEN));
  });

  it('keeps the new token when a read of the user begun before regenerating answers after it', async () => {
    const late = deferred<void>();
    let holding = false;
    const { user, queryClient } = renderSettings({
      // A read begun now answers the token as it is now, the first one, but late.
      getUser: async () => {
        if (holding) await late.promise;
        return alice;
      },
      regenerateApiToken: { apiToken: NEW_TOKEN },
    });
    const card = await section('API Token');
    const field = await tokenField(card);

    holding = true;
    void queryClient.invalidateQueries({ queryKey: ['users'] });
    await waitFor(() => expect(queryClient.isFetching({ queryKey: ['users'] })).toBe(1));

    await user.click(within(card).getByRole('button', { name: 'Regenerate' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Regenerate API token?' });
    await user.click(within(dialog).getByRole('button', { name: 'Regenerate' }));
    expect(await screen.findByText('API token regenerated')).toBeInTheDocument();
    expect(field).toHaveValue(masked(NEW_TOKEN));

    // The old read answers now, with the old token: it must not replace the new one.
    late.resolve();
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(queryClient.getQueryData<UserWithToken>(['users', 'detail', 'u1'])?.apiToken).toBe(
      NEW_TOKEN,
    );
    expect(field).toHaveValue(masked(NEW_TOKEN));
  });

  it('says so when regenerating fails, and keeps the token shown', async () => {
    const { user } = renderSettings({ regenerateApiToken: serverError() });
    const card = await section('API Token');
    const field = await tokenField(card);
    await user.click(within(card).getByRole('button', { name: 'Regenerate' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Regenerate' }));
    expect(await screen.findByText('Failed to regenerate API token')).toBeInTheDocument();
    expect(field).toHaveValue(masked(FIRST_TOKEN));
  });
});
