// The Uploads page's filters: the search box and menus, their badges, and the address that
// keeps them.
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUpload } from '../test/fixtures.ts';
import { currentUrl } from '../test/render-app.tsx';
import { photo, renderUploads, secret, uploadsPage } from '../test/uploads.ts';

/** A list of 45 uploads, one shown per page, named after its page. */
const paged = ({ query }: { query: URLSearchParams }) =>
  uploadsPage([makeUpload({ originalFilename: `p${query.get('page')}.txt` })], {
    total: 45,
    page: Number(query.get('page')),
  });

describe('Uploads page: filters', () => {
  it('searches after typing stops, shows the badge and the filtered-empty state, and Clear All resets', async () => {
    const { user, queries } = renderUploads({
      listUploads: ({ query }) => uploadsPage(query.get('search') ? [] : [photo()]),
    });
    await screen.findByRole('article', { name: 'photo.png' });

    await user.type(screen.getByPlaceholderText('Search uploads...'), 'zzz');

    expect(await screen.findByText('No uploads match your filters')).toBeInTheDocument();
    expect(screen.getByText('Try adjusting your filters or search term')).toBeInTheDocument();
    expect(screen.getByText('Search: zzz')).toBeInTheDocument();
    // One request for the whole word, not one per letter.
    expect(queries('listUploads').map((q) => q.search)).toEqual([undefined, 'zzz']);

    await user.click(screen.getByRole('button', { name: 'Clear All' }));

    expect(await screen.findByRole('article', { name: 'photo.png' })).toBeInTheDocument();
    expect(screen.queryByText('Search: zzz')).not.toBeInTheDocument();
    expect(screen.getByPlaceholderText('Search uploads...')).toHaveValue('');
    expect(screen.queryByRole('button', { name: 'Clear All' })).not.toBeInTheDocument();
  });

  it('filters by type and sorts from the menus, with a badge for each, and Clear All resets both', async () => {
    const { user, queries } = renderUploads({ listUploads: uploadsPage([photo()]) });
    await screen.findByRole('article', { name: 'photo.png' });

    await user.click(screen.getByRole('button', { name: /^File type/ }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Images' }));
    await waitFor(() => expect(queries('listUploads').at(-1)).toMatchObject({ type: 'images' }));
    expect(screen.getByText('Type: Images')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'File type: Images' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /^Sort/ }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Most Viewed' }));
    await waitFor(() =>
      expect(queries('listUploads').at(-1)).toMatchObject({ type: 'images', sort: 'most-viewed' }),
    );
    expect(screen.getByText('Sort: Most Viewed')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear All' }));
    await waitFor(() =>
      expect(queries('listUploads').at(-1)).toEqual({ sort: 'newest', page: '1', limit: '20' }),
    );
    expect(screen.queryByText('Type: Images')).not.toBeInTheDocument();
    expect(screen.queryByText('Sort: Most Viewed')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'File type: All Files' })).toBeInTheDocument();
  });

  it('removes one filter from its badge', async () => {
    const { user, queries } = renderUploads({ listUploads: uploadsPage([photo()]) });
    await screen.findByRole('article', { name: 'photo.png' });
    await user.click(screen.getByRole('button', { name: /^File type/ }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Archives' }));
    await user.click(await screen.findByRole('button', { name: 'Remove filter Type: Archives' }));
    await waitFor(() => expect(queries('listUploads').at(-1)?.type).toBeUndefined());
    expect(screen.queryByText('Type: Archives')).not.toBeInTheDocument();
  });
});

describe('Uploads page: filters in the address', () => {
  it('writes search, type, sort and page to the query string, leaving defaults out', async () => {
    const { user, router, queries } = renderUploads({ listUploads: paged });
    await screen.findByRole('article', { name: 'p1.txt' });
    expect(currentUrl(router)).toBe('/uploads');

    await user.click(screen.getByRole('button', { name: /^File type/ }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Images' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/uploads?type=images'));

    await user.click(screen.getByRole('button', { name: /^Sort/ }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Oldest' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/uploads?type=images&sort=oldest'));

    await user.type(screen.getByRole('searchbox', { name: 'Search uploads' }), 'cat');
    await waitFor(() =>
      expect(currentUrl(router)).toBe('/uploads?type=images&sort=oldest&search=cat'),
    );

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() =>
      expect(currentUrl(router)).toBe('/uploads?type=images&sort=oldest&search=cat&page=2'),
    );
    expect(await screen.findByRole('article', { name: 'p2.txt' })).toBeInTheDocument();
    expect(queries('listUploads').at(-1)).toEqual({
      search: 'cat',
      type: 'images',
      sort: 'oldest',
      page: '2',
      limit: '20',
    });
    // The debounce holds for the request: one for the whole word, not one per letter.
    expect(queries('listUploads').filter((q) => q.search !== undefined)).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Clear All' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/uploads'));
  });

  it('opens a shared filtered address as it says, ignoring values it does not know', async () => {
    const { queries } = renderUploads(
      { listUploads: uploadsPage([photo()], { total: 45, page: 2 }) },
      '/uploads?search=holiday&type=images&sort=most-viewed&page=2&colour=red',
    );
    await screen.findByRole('article', { name: 'photo.png' });
    expect(queries('listUploads')).toEqual([
      { search: 'holiday', type: 'images', sort: 'most-viewed', page: '2', limit: '20' },
    ]);
    expect(screen.getByRole('searchbox', { name: 'Search uploads' })).toHaveValue('holiday');
    expect(screen.getByRole('button', { name: 'File type: Images' })).toBeInTheDocument();
    expect(screen.getByText('Sort: Most Viewed')).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
  });

  it('reads a malformed address as the defaults', async () => {
    const { queries } = renderUploads(
      { listUploads: uploadsPage([photo()]) },
      '/uploads?type=spreadsheets&sort=sideways&page=-3',
    );
    await screen.findByRole('article', { name: 'photo.png' });
    expect(queries('listUploads')).toEqual([{ sort: 'newest', page: '1', limit: '20' }]);
  });

  it('follows back and forward: the list, the search box and the badges', async () => {
    const { user, router, queries } = renderUploads({
      listUploads: ({ query }) =>
        uploadsPage(query.get('search') ? [secret()] : [photo(), secret()]),
    });
    await screen.findByRole('article', { name: 'photo.png' });
    const box = screen.getByRole('searchbox', { name: 'Search uploads' });

    await user.type(box, 'secret');
    await waitFor(() => expect(currentUrl(router)).toBe('/uploads?search=secret'));
    await waitFor(() =>
      expect(screen.queryByRole('article', { name: 'photo.png' })).not.toBeInTheDocument(),
    );

    await router.navigate(-1);
    expect(await screen.findByRole('article', { name: 'photo.png' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/uploads');
    expect(box).toHaveValue('');
    expect(screen.queryByText('Search: secret')).not.toBeInTheDocument();

    await router.navigate(1);
    await waitFor(() => expect(box).toHaveValue('secret'));
    expect(screen.getByText('Search: secret')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('article', { name: 'photo.png' })).not.toBeInTheDocument(),
    );
    expect(queries('listUploads').at(-1)).toMatchObject({ search: 'secret' });
  });

  it('clears the selection when the filters change, by a menu or by going back', async () => {
    const { user, router } = renderUploads({ listUploads: uploadsPage([photo(), secret()]) });
    await screen.findByRole('article', { name: 'photo.png' });

    await user.click(screen.getByRole('checkbox', { name: 'Select photo.png' }));
    expect(screen.getByText('1 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^File type/ }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Documents' }));
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Selected uploads' })).not.toBeInTheDocument(),
    );

    await user.click(await screen.findByRole('checkbox', { name: 'Select secret.pdf' }));
    expect(screen.getByText('1 selected')).toBeInTheDocument();
    await router.navigate(-1);
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Selected uploads' })).not.toBeInTheDocument(),
    );
  });
});
