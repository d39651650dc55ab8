// The Uploads page's links: copying one, opening a private file, and the Custom Short URL dialog.
import type { Upload } from '@upshot/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { deferred } from '../test/fetch-mock.ts';
import { refuse, type Answer } from '../test/mock-api.ts';
import { photo, PUBLIC_URL, renderUploads, secret, uploadsPage } from '../test/uploads.ts';

describe('Uploads page: links', () => {
  it("copies the server's link for the upload", async () => {
    const { user } = renderUploads({ listUploads: uploadsPage([photo()]) });
    const card = await screen.findByRole('article', { name: 'photo.png' });
    await user.click(within(card).getByRole('button', { name: 'Copy URL of photo.png' }));
    expect(await screen.findByText('URL copied to clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(`${PUBLIC_URL}/holiday`);
  });

  it('opens a private file through a signed link in a new tab', async () => {
    const tab = { opener: {}, location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const { user, sent } = renderUploads({
      listUploads: uploadsPage([secret()]),
      uploadAccessUrl: {
        url: 'http://localhost/def567?expires=1&signature=abc',
        previewUrl: 'http://localhost/v/def567?expires=1&signature=abc',
        thumbnailUrl: 'http://localhost/thumb/def567?expires=1&signature=abc',
        expiresAt: '2030-01-01T00:00:00.000Z',
      },
    });
    const card = await screen.findByRole('article', { name: 'secret.pdf' });

    await user.click(within(card).getByRole('button', { name: 'Open secret.pdf' }));

    expect(open).toHaveBeenCalledWith('about:blank', '_blank');
    await waitFor(() =>
      expect(tab.location.href).toBe('http://localhost/def567?expires=1&signature=abc'),
    );
    expect(tab.opener).toBeNull();
    expect(new URL(sent('uploadAccessUrl')[0]!.url).pathname).toBe('/api/uploads/s1/access-url');
  });
});

describe('Custom Short URL dialog', () => {
  // The server's PUBLIC_URL, not jsdom's page origin: the dialog prefixes the input with it.
  const origin = PUBLIC_URL;

  async function openFor(user: ReturnType<typeof renderUploads>['user'], filename: string) {
    const card = await screen.findByRole('article', { name: filename });
    await user.click(within(card).getByRole('button', { name: `Set custom URL for ${filename}` }));
    return screen.findByRole('dialog', { name: 'Custom Short URL' });
  }

  it('previews the link as you type and saves it', async () => {
    const { user, sent, bodies } = renderUploads({
      listUploads: uploadsPage([photo(), secret()]),
      updateUpload: ({ body }) => ({ ...secret(), vanityUrl: body.vanityUrl ?? null }),
    });
    const dialog = await openFor(user, 'secret.pdf');
    const input = within(dialog).getByLabelText('Custom URL');
    const preview = within(dialog).getByRole('status', { name: 'Preview' });

    expect(within(dialog).getByText(`${origin}/`)).toBeInTheDocument();
    expect(input).toHaveAttribute('maxLength', '50');
    expect(preview).toHaveTextContent(`${origin}/def567`);
    expect(input).toHaveAccessibleDescription(
      '3-50 characters: letters, numbers, hyphens and underscores',
    );
    expect(within(dialog).queryByText(/Current custom URL/)).not.toBeInTheDocument();

    await user.type(input, 'my-report');
    expect(preview).toHaveTextContent(`${origin}/my-report`);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Vanity URL set')).toBeInTheDocument();
    expect(new URL(sent('updateUpload')[0]!.url).pathname).toBe('/api/uploads/s1');
    expect(await bodies('updateUpload')).toEqual([{ vanityUrl: 'my-report' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the current custom URL, and an emptied field removes it (sent as null)', async () => {
    const { user, bodies } = renderUploads({
      listUploads: uploadsPage([photo()]),
      updateUpload: { ...photo(), vanityUrl: null },
    });
    const dialog = await openFor(user, 'photo.png');
    expect(within(dialog).getByText(/Current custom URL/)).toHaveTextContent(
      `Current custom URL: ${origin}/holiday`,
    );
    expect(within(dialog).getByLabelText('Custom URL')).toHaveValue('holiday');

    await user.click(within(dialog).getByRole('button', { name: 'Clear custom URL' }));
    expect(within(dialog).getByRole('status', { name: 'Preview' })).toHaveTextContent(
      `${origin}/abc234`,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Vanity URL removed')).toBeInTheDocument();
    expect(await bodies('updateUpload')).toEqual([{ vanityUrl: null }]);
  });

  it("shows 'Saving...', then the server's reason, and stays open when the link is refused", async () => {
    const answer = deferred<Answer<'updateUpload'>>();
    const { user } = renderUploads({
      listUploads: uploadsPage([photo(), secret()]),
      updateUpload: () => answer.promise,
    });
    const dialog = await openFor(user, 'secret.pdf');

    await user.type(within(dialog).getByLabelText('Custom URL'), 'admin');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('button', { name: 'Saving...' })).toBeDisabled();
    answer.resolve(refuse(409, '"admin" is reserved'));

    // Under the field, tied to it, and in the toast.
    const field = within(dialog).getByLabelText('Custom URL');
    await waitFor(() => expect(field).toHaveAccessibleDescription(/"admin" is reserved/));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getAllByText('"admin" is reserved')).toHaveLength(2);
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeEnabled();
    expect(screen.getByRole('dialog', { name: 'Custom Short URL' })).toBeInTheDocument();

    // Typing again clears the refusal.
    await user.type(field, '-2');
    expect(field).not.toHaveAttribute('aria-invalid');
  });

  it("falls back to 'Failed to update vanity URL' without a server message", async () => {
    const { user } = renderUploads({
      listUploads: uploadsPage([photo(), secret()]),
      updateUpload: (): Upload => {
        throw new TypeError('Failed to fetch'); // the connection dropped
      },
    });
    const dialog = await openFor(user, 'secret.pdf');
    await user.type(within(dialog).getByLabelText('Custom URL'), 'x1y2z3');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Custom URL')).toHaveAccessibleDescription(
        /Failed to update vanity URL/,
      ),
    );
  });
});
