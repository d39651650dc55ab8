import type { ListUploadsResponse } from '@upshot/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { THUMBNAIL_RETRY_DELAYS_MS } from '../features/uploads/components/upload-thumbnail.tsx';
import { deferred } from '../test/fetch-mock.ts';
import { makeUpload } from '../test/fixtures.ts';
import { noContent, refuse, serverError, type Answer } from '../test/mock-api.ts';
import { photo, PUBLIC_URL, renderUploads, secret, uploadsPage } from '../test/uploads.ts';

describe('Uploads page: list states', () => {
  it("shows 'Loading...' and then a card per upload with its details", async () => {
    const answer = deferred<ListUploadsResponse>();
    const { queries } = renderUploads({ listUploads: () => answer.promise });

    expect(await screen.findByText('Loading...')).toBeInTheDocument();
    answer.resolve(uploadsPage([photo(), secret()]));

    const card = await screen.findByRole('article', { name: 'photo.png' });
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
    expect(within(card).getByText('1.5 KB')).toBeInTheDocument();
    expect(within(card).getByText('3 views')).toBeInTheDocument();
    expect(within(card).getByText('/holiday')).toBeInTheDocument();
    expect(within(card).getByText('Mar 5, 2025', { exact: false })).toBeInTheDocument();
    expect(within(card).queryByText('Private')).not.toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Open photo.png' })).toHaveAttribute(
      'href',
      `${PUBLIC_URL}/holiday`,
    );
    // Every control names the file it acts on, and each action is one tab stop.
    const tabStops = [...card.querySelectorAll<HTMLElement>('a[href], button, input')]
      .filter((element) => element.tabIndex >= 0)
      .map((element) => element.getAttribute('aria-label'));
    expect(tabStops).toEqual([
      'Select photo.png',
      'Open photo.png',
      'Add tag to photo.png',
      'Copy URL of photo.png',
      'Make photo.png private',
      'Link settings for photo.png',
      'Set custom URL for photo.png',
      'Delete photo.png',
    ]);
    expect(within(card).getAllByRole('link')).toHaveLength(1);
    expect(within(card).getByRole('button', { name: 'Copy URL of photo.png' })).toHaveTextContent(
      'Copy URL',
    );
    const privateCard = screen.getByRole('article', { name: 'secret.pdf' });
    expect(within(privateCard).getByText('Private')).toBeInTheDocument();
    expect(queries('listUploads')[0]).toEqual({ sort: 'newest', page: '1', limit: '20' });
  });

  it('shows a picture only for an upload the server made a thumbnail of', async () => {
    const noThumb = makeUpload({
      originalFilename: 'huge.tiff',
      mimeType: 'image/tiff',
      thumbnailUrl: null,
    });
    const clip = makeUpload({
      originalFilename: 'clip.mp4',
      mimeType: 'video/mp4',
      thumbnailUrl: `${PUBLIC_URL}/thumb/clip01`,
    });
    renderUploads({ listUploads: uploadsPage([noThumb, clip]) });
    const tiff = await screen.findByRole('article', { name: 'huge.tiff' });
    expect(tiff.querySelector('img')).toBeNull();
    expect(tiff.querySelector('svg.lucide-file-image')).not.toBeNull();
    const video = screen.getByRole('article', { name: 'clip.mp4' });
    expect(video.querySelector('img')).toHaveAttribute('src', `${PUBLIC_URL}/thumb/clip01`);
  });

  it('shows the thumbnail of an image, and the generic icon when the thumbnail fails', async () => {
    renderUploads({ listUploads: uploadsPage([photo(), secret()]) });
    const card = await screen.findByRole('article', { name: 'photo.png' });
    const img = card.querySelector('img');
    expect(img).toHaveAttribute('src', `${PUBLIC_URL}/thumb/abc234`);
    expect(screen.getByRole('article', { name: 'secret.pdf' }).querySelector('img')).toBeNull();

    fireEvent.error(img!);
    expect(card.querySelector('img')).toBeNull();
    expect(card.querySelector('svg.lucide-file-image')).not.toBeNull();
  });

  it("asks again for a new upload's thumbnail, which may still be being made, then gives up", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fresh = { ...photo(), createdAt: new Date().toISOString() };
    renderUploads({ listUploads: uploadsPage([fresh]) });
    const card = await screen.findByRole('article', { name: 'photo.png' });
    for (const wait of THUMBNAIL_RETRY_DELAYS_MS) {
      fireEvent.error(card.querySelector('img')!);
      expect(card.querySelector('img')).toBeNull();
      await act(async () => {
        vi.advanceTimersByTime(wait);
      });
      // Asked for again, as a new element (a new request).
      expect(card.querySelector('img')).toHaveAttribute('src', `${PUBLIC_URL}/thumb/abc234`);
    }
    fireEvent.error(card.querySelector('img')!);
    await act(async () => {
      vi.advanceTimersByTime(60_000);
    });
    expect(card.querySelector('img')).toBeNull();
    expect(card.querySelector('svg.lucide-file-image')).not.toBeNull();
    vi.useRealTimers();
  });

  it('invites the first upload when there are none', async () => {
    renderUploads({ listUploads: uploadsPage([]) });
    expect(await screen.findByText('No uploads yet')).toBeInTheDocument();
    expect(screen.getByText('Upload your first file to get started')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Upload Files' })).toHaveLength(2);
    expect(screen.getByRole('checkbox', { name: 'Select All' })).toBeDisabled();
  });

  it("says 'Failed to load uploads' when the list cannot be fetched, and tries again", async () => {
    let answer: Answer<'listUploads'> = serverError();
    const { user } = renderUploads({ listUploads: () => answer });
    expect(await screen.findByText('Failed to load uploads')).toBeInTheDocument();
    expect(screen.getByText('Your uploads could not be loaded.')).toBeInTheDocument();

    answer = uploadsPage([photo()]);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'photo.png' })).toBeInTheDocument();
  });

  it('pages through results when there are more than fit', async () => {
    const { user, queries } = renderUploads({
      listUploads: ({ query }) =>
        uploadsPage([makeUpload({ originalFilename: `p${query.get('page')}.txt` })], {
          total: 45,
          page: Number(query.get('page')),
        }),
    });
    expect(await screen.findByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Next page' }));

    expect(await screen.findByRole('article', { name: 'p2.txt' })).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    expect(queries('listUploads').at(-1)).toMatchObject({ page: '2' });
  });
});

describe('Uploads page: selection and deletes', () => {
  it('Select All ticks every card, and clears them when all are ticked', async () => {
    const { user } = renderUploads({ listUploads: uploadsPage([photo(), secret()]) });
    await screen.findByRole('article', { name: 'photo.png' });
    const selectAll = screen.getByRole('checkbox', { name: 'Select All' });

    await user.click(screen.getByRole('checkbox', { name: 'Select photo.png' }));
    expect(selectAll).toHaveAttribute('data-state', 'indeterminate');
    expect(screen.getByText('1 selected')).toBeInTheDocument();

    await user.click(selectAll);
    expect(screen.getByRole('checkbox', { name: 'Select photo.png' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select secret.pdf' })).toBeChecked();
    expect(screen.getByText('2 selected')).toBeInTheDocument();

    await user.click(selectAll);
    expect(screen.getByRole('checkbox', { name: 'Select photo.png' })).not.toBeChecked();
    expect(screen.queryByRole('region', { name: 'Selected uploads' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Select secret.pdf' }));
    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.getByRole('checkbox', { name: 'Select secret.pdf' })).not.toBeChecked();
  });

  it('confirms a batch delete with the count, deletes, reloads and clears the selection', async () => {
    let deleted = false;
    const { user, bodies, queries } = renderUploads({
      listUploads: () => uploadsPage(deleted ? [] : [photo(), secret()]),
      batchDeleteUploads: () => {
        deleted = true;
        return { deletedCount: 2 };
      },
    });
    await screen.findByRole('article', { name: 'photo.png' });
    await user.click(screen.getByRole('checkbox', { name: 'Select All' }));

    const bar = screen.getByRole('region', { name: 'Selected uploads' });
    await user.click(within(bar).getByRole('button', { name: 'Delete 2 selected upload(s)' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Delete 2 upload(s)? This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('2 upload(s) deleted')).toBeInTheDocument();
    expect(await bodies('batchDeleteUploads')).toEqual([{ uploadIds: ['p1', 's1'] }]);
    expect(await screen.findByText('No uploads yet')).toBeInTheDocument();
    expect(queries('listUploads')).toHaveLength(2);
    expect(screen.queryByRole('region', { name: 'Selected uploads' })).not.toBeInTheDocument();
  });

  it('keeps the selection and says so when a batch delete fails; Cancel deletes nothing', async () => {
    const { user, writes } = renderUploads({
      listUploads: uploadsPage([photo(), secret()]),
      batchDeleteUploads: serverError(),
    });
    await screen.findByRole('article', { name: 'photo.png' });
    await user.click(screen.getByRole('checkbox', { name: 'Select photo.png' }));
    const bar = screen.getByRole('region', { name: 'Selected uploads' });

    await user.click(within(bar).getByRole('button', { name: 'Delete 1 selected upload(s)' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }),
    );
    expect(writes()).toEqual([]);

    await user.click(within(bar).getByRole('button', { name: 'Delete 1 selected upload(s)' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Delete 1 upload(s)? This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete uploads')).toBeInTheDocument();
    expect(screen.getByText('1 selected')).toBeInTheDocument();
  });

  it('deletes one upload after confirming with its name', async () => {
    let deleted = false;
    const { user, writes } = renderUploads({
      listUploads: () => uploadsPage(deleted ? [secret()] : [photo(), secret()]),
      deleteUpload: () => {
        deleted = true;
        return noContent();
      },
    });
    const card = await screen.findByRole('article', { name: 'photo.png' });

    await user.click(within(card).getByRole('button', { name: 'Delete photo.png' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Delete "photo.png"? This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Upload deleted')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('article', { name: 'photo.png' })).not.toBeInTheDocument(),
    );
    expect(writes()).toEqual(['DELETE /api/uploads/p1']);
  });

  it("says 'Failed to delete upload' when the server refuses", async () => {
    const { user } = renderUploads({
      listUploads: uploadsPage([photo()]),
      deleteUpload: refuse(404, 'nope'),
    });
    const card = await screen.findByRole('article', { name: 'photo.png' });
    await user.click(within(card).getByRole('button', { name: 'Delete photo.png' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('Failed to delete upload')).toBeInTheDocument();
  });
});
