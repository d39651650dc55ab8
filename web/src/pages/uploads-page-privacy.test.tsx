// The Uploads page's link controls on the cards: what limits a link, switching privacy one by one
// and for the selection, and copying or opening a link that needs a signature.
import type { Upload } from '@upshot/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { formatDate } from '../lib/format.ts';
import { makeUpload } from '../test/fixtures.ts';
import { refuse } from '../test/mock-api.ts';
import { photo, PUBLIC_URL, renderUploads, secret, uploadsPage } from '../test/uploads.ts';

const DAY = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY + 60_000).toISOString();

const card = (name: string) => screen.findByRole('article', { name });

describe('Uploads page: what limits a link', () => {
  it('shows the expiry, the views left and a lock for a password, only where they apply', async () => {
    renderUploads({
      listUploads: uploadsPage([
        makeUpload({
          originalFilename: 'limited.zip',
          expiresAt: inDays(3),
          maxViews: 5,
          viewsLeft: 2,
          hasPassword: true,
        }),
        makeUpload({
          originalFilename: 'spent.zip',
          expiresAt: new Date(Date.now() - 60_000).toISOString(),
          maxViews: 1,
          viewsLeft: 0,
        }),
        photo(),
      ]),
    });
    const limited = await card('limited.zip');
    expect(within(limited).getByText('Expires in 3 days')).toBeInTheDocument();
    expect(within(limited).getByText('2 of 5 views left')).toBeInTheDocument();
    expect(within(limited).getByText('Password protected')).toBeInTheDocument();

    const spent = screen.getByRole('article', { name: 'spent.zip' });
    expect(within(spent).getByText('Expired')).toBeInTheDocument();
    expect(within(spent).getByText('No views left')).toBeInTheDocument();
    expect(within(spent).queryByText('Password protected')).toBeNull();

    const plain = screen.getByRole('article', { name: 'photo.png' });
    expect(within(plain).queryByText(/Expire|views left|No views/)).toBeNull();
    expect(within(plain).queryByText('Password protected')).toBeNull();
  });
});

describe('Uploads page: privacy', () => {
  it("switches one card's privacy and says so", async () => {
    const { user, bodies, sent } = renderUploads({
      listUploads: uploadsPage([photo(), secret()]),
      updateUpload: ({ params, body }) =>
        ({ ...(params.id === 'p1' ? photo() : secret()), ...body }) as Upload,
    });
    await user.click(
      within(await card('photo.png')).getByRole('button', { name: 'Make photo.png private' }),
    );
    expect(await screen.findByText('Upload made private')).toBeInTheDocument();
    await user.click(
      within(await card('secret.pdf')).getByRole('button', { name: 'Make secret.pdf public' }),
    );
    expect(await screen.findByText('Upload made public')).toBeInTheDocument();

    expect(sent('updateUpload').map((request) => new URL(request.url).pathname)).toEqual([
      '/api/uploads/p1',
      '/api/uploads/s1',
    ]);
    expect(await bodies('updateUpload')).toEqual([{ isPublic: false }, { isPublic: true }]);
  });

  it("says the server's reason when it refuses a card's privacy", async () => {
    const { user } = renderUploads({
      listUploads: uploadsPage([photo()]),
      updateUpload: refuse(404, 'Upload not found'),
    });
    await user.click(
      within(await card('photo.png')).getByRole('button', { name: 'Make photo.png private' }),
    );
    expect(await screen.findByText('Upload not found')).toBeInTheDocument();
  });

  it('makes the selection private or public from the bar, then clears it', async () => {
    const { user, bodies } = renderUploads({
      listUploads: uploadsPage([photo(), secret()]),
      batchPrivacy: ({ body }) => ({ updatedCount: body.uploadIds.length }),
    });
    await card('photo.png');
    await user.click(screen.getByRole('checkbox', { name: 'Select All' }));
    const bar = screen.getByRole('region', { name: 'Selected uploads' });
    await user.click(within(bar).getByRole('button', { name: 'Privacy' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Make private' }));

    expect(await screen.findByText('2 upload(s) made private')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Selected uploads' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Select secret.pdf' }));
    await user.click(
      within(screen.getByRole('region', { name: 'Selected uploads' })).getByRole('button', {
        name: 'Privacy',
      }),
    );
    await user.click(await screen.findByRole('menuitem', { name: 'Make public' }));
    expect(await screen.findByText('1 upload(s) made public')).toBeInTheDocument();
    expect(await bodies('batchPrivacy')).toEqual([
      { uploadIds: ['p1', 's1'], isPublic: false },
      { uploadIds: ['s1'], isPublic: true },
    ]);
  });

  it('keeps the selection when the batch fails', async () => {
    const { user } = renderUploads({
      listUploads: uploadsPage([photo()]),
      batchPrivacy: refuse(500, 'boom'),
    });
    await user.click(await screen.findByRole('checkbox', { name: 'Select photo.png' }));
    await user.click(screen.getByRole('button', { name: 'Privacy' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Make public' }));
    expect(await screen.findByText('Failed to change privacy')).toBeInTheDocument();
    expect(screen.getByText('1 selected')).toBeInTheDocument();
  });
});

describe('Uploads page: links that need a signature', () => {
  const signed = {
    url: `${PUBLIC_URL}/def567?expires=1765000000&signature=abc`,
    previewUrl: `${PUBLIC_URL}/v/def567?expires=1765000000&signature=abc`,
    thumbnailUrl: null,
    expiresAt: '2026-12-04T17:01:00.000Z',
  };

  it('copies a signed link valid 7 days for a private upload, and says until when', async () => {
    const { user, queries, sent } = renderUploads({
      listUploads: uploadsPage([secret()]),
      uploadAccessUrl: signed,
    });
    await user.click(
      within(await card('secret.pdf')).getByRole('button', { name: 'Copy URL of secret.pdf' }),
    );
    expect(await screen.findByText('URL copied to clipboard')).toBeInTheDocument();
    expect(
      screen.getByText(`Private link, works until ${formatDate(signed.expiresAt)}`),
    ).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(signed.url);
    expect(new URL(sent('uploadAccessUrl')[0]!.url).pathname).toBe('/api/uploads/s1/access-url');
    expect(queries('uploadAccessUrl')).toEqual([{ ttl: '604800' }]);
  });

  it('copies a public link as it is, password or view limit and all', async () => {
    const guarded = makeUpload({
      originalFilename: 'guarded.zip',
      url: `${PUBLIC_URL}/guarded`,
      maxViews: 3,
      viewsLeft: 3,
      hasPassword: true,
    });
    const { user, sent } = renderUploads({ listUploads: uploadsPage([guarded]) });
    await user.click(
      within(await card('guarded.zip')).getByRole('button', { name: 'Copy URL of guarded.zip' }),
    );
    expect(await screen.findByText('URL copied to clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(`${PUBLIC_URL}/guarded`);
    expect(sent('uploadAccessUrl')).toHaveLength(0);
  });

  it('says so, and copies nothing, when the link cannot be signed', async () => {
    const { user } = renderUploads({
      listUploads: uploadsPage([secret()]),
      uploadAccessUrl: refuse(404, 'Upload not found'),
    });
    await navigator.clipboard.writeText('before');
    await user.click(
      within(await card('secret.pdf')).getByRole('button', { name: 'Copy URL of secret.pdf' }),
    );
    expect(await screen.findByText('Failed to copy URL')).toBeInTheDocument();
    expect(screen.getByText('Upload not found')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe('before');
  });

  it('opens a view-limited public file through a signed link, spending none of its views', async () => {
    const tab = { opener: {}, location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const once = makeUpload({
      id: 'o1',
      originalFilename: 'once.mp4',
      url: `${PUBLIC_URL}/once`,
      maxViews: 1,
      viewsLeft: 1,
    });
    const { user, queries } = renderUploads({
      listUploads: uploadsPage([once]),
      uploadAccessUrl: { ...signed, url: `${PUBLIC_URL}/once?signature=abc` },
    });
    const onceCard = await card('once.mp4');
    expect(within(onceCard).queryByRole('link')).toBeNull();
    await user.click(within(onceCard).getByRole('button', { name: 'Open once.mp4' }));
    await waitFor(() => expect(tab.location.href).toBe(`${PUBLIC_URL}/once?signature=abc`));
    expect(open).toHaveBeenCalledWith('about:blank', '_blank');
    expect(queries('uploadAccessUrl')).toEqual([{}]); // the short default life is enough
  });
});
