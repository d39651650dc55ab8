import type { ListUploadsResponse, Upload } from '@upshot/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { deferred, jsonResponse, mockFetch } from '../test/fetch-mock.ts';
import { makePreferences, makeServerConfig, makeUpload, makeUser } from '../test/fixtures.ts';
import { currentUrl, renderApp } from '../test/render-app.tsx';

type ListHandler = (query: URLSearchParams) => ListUploadsResponse | Response | Promise<Response>;

function page(uploads: Upload[], overrides: Partial<ListUploadsResponse> = {}) {
  return { uploads, total: uploads.length, page: 1, limit: 20, ...overrides };
}

/** The server's PUBLIC_URL in these tests: not the address the app runs at (jsdom's). */
const PUBLIC_URL = 'https://share.example.com';

/** The signed-in app on /uploads, with the list answered by `list` and more routes as given. */
function renderUploads(
  list: ListHandler,
  more: Parameters<typeof mockFetch>[0] = {},
  path = '/uploads',
) {
  localStorage.setItem('auth_token', 'tok');
  const network = mockFetch({
    'GET /api/auth/me': () => jsonResponse(200, makeUser()),
    'GET /api/config': () => jsonResponse(200, makeServerConfig({ publicUrl: PUBLIC_URL })),
    'GET /api/preferences': () => jsonResponse(200, { preferences: makePreferences() }),
    'GET /api/tags': () => jsonResponse(200, { tags: [] }),
    'GET /api/uploads': async (request) => {
      const answer = await list(new URL(request.url).searchParams);
      return answer instanceof Response ? answer : jsonResponse(200, answer);
    },
    ...more,
  });
  const listQueries = () =>
    network.requests
      .filter((r) => r.method === 'GET' && new URL(r.url).pathname === '/api/uploads')
      .map((r) => Object.fromEntries(new URL(r.url).searchParams));
  return { ...renderApp(path), ...network, listQueries };
}

const photo = () =>
  makeUpload({
    id: 'p1',
    originalFilename: 'photo.png',
    mimeType: 'image/png',
    size: 1536,
    views: 3,
    shortCode: 'abc234',
    vanityUrl: 'holiday',
    url: `${PUBLIC_URL}/holiday`,
    thumbnailUrl: `${PUBLIC_URL}/thumb/abc234`,
  });
const secret = () =>
  makeUpload({
    id: 's1',
    originalFilename: 'secret.pdf',
    mimeType: 'application/pdf',
    isPublic: false,
    views: 1,
    shortCode: 'def567',
    url: `${PUBLIC_URL}/def567`,
  });

describe('Uploads page: list states', () => {
  it("shows 'Loading...' and then a card per upload with its details", async () => {
    const answer = deferred<Response>();
    const { listQueries } = renderUploads(() => answer.promise);

    expect(await screen.findByText('Loading...')).toBeInTheDocument();
    answer.resolve(jsonResponse(200, page([photo(), secret()])));

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
      'Set custom URL for photo.png',
      'Delete photo.png',
    ]);
    expect(within(card).getAllByRole('link')).toHaveLength(1);
    expect(within(card).getByRole('button', { name: 'Copy URL of photo.png' })).toHaveTextContent(
      'Copy URL',
    );
    const privateCard = screen.getByRole('article', { name: 'secret.pdf' });
    expect(within(privateCard).getByText('Private')).toBeInTheDocument();
    expect(listQueries()[0]).toEqual({ sort: 'newest', page: '1', limit: '20' });
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
    renderUploads(() => page([noThumb, clip]));
    const tiff = await screen.findByRole('article', { name: 'huge.tiff' });
    expect(tiff.querySelector('img')).toBeNull();
    expect(tiff.querySelector('svg.lucide-file-image')).not.toBeNull();
    const video = screen.getByRole('article', { name: 'clip.mp4' });
    expect(video.querySelector('img')).toHaveAttribute('src', `${PUBLIC_URL}/thumb/clip01`);
  });

  it('shows the thumbnail of an image, and the generic icon when the thumbnail fails', async () => {
    renderUploads(() => page([photo(), secret()]));
    const card = await screen.findByRole('article', { name: 'photo.png' });
    const img = card.querySelector('img');
    expect(img).toHaveAttribute('src', `${PUBLIC_URL}/thumb/abc234`);
    expect(screen.getByRole('article', { name: 'secret.pdf' }).querySelector('img')).toBeNull();

    fireEvent.error(img!);
    expect(card.querySelector('img')).toBeNull();
    expect(card.querySelector('svg.lucide-file-image')).not.toBeNull();
  });

  it('invites the first upload when there are none', async () => {
    renderUploads(() => page([]));
    expect(await screen.findByText('No uploads yet')).toBeInTheDocument();
    expect(screen.getByText('Upload your first file to get started')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Upload Files' })).toHaveLength(2);
    expect(screen.getByRole('checkbox', { name: 'Select All' })).toBeDisabled();
  });

  it("says 'Failed to load uploads' when the list cannot be fetched", async () => {
    renderUploads(() => jsonResponse(500, { error: 'internal_error', message: 'boom' }));
    expect(await screen.findByText('Failed to load uploads')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('pages through results when there are more than fit', async () => {
    const { user, listQueries } = renderUploads((query) =>
      page([makeUpload({ originalFilename: `p${query.get('page')}.txt` })], {
        total: 45,
        page: Number(query.get('page')),
      }),
    );
    expect(await screen.findByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Next page' }));

    expect(await screen.findByRole('article', { name: 'p2.txt' })).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    expect(listQueries().at(-1)).toMatchObject({ page: '2' });
  });
});

describe('Uploads page: filters', () => {
  it('searches after typing stops, shows the badge and the filtered-empty state, and Clear All resets', async () => {
    const { user, listQueries } = renderUploads((query) =>
      page(query.get('search') ? [] : [photo()]),
    );
    await screen.findByRole('article', { name: 'photo.png' });

    await user.type(screen.getByPlaceholderText('Search uploads...'), 'zzz');

    expect(await screen.findByText('No uploads match your filters')).toBeInTheDocument();
    expect(screen.getByText('Try adjusting your filters or search term')).toBeInTheDocument();
    expect(screen.getByText('Search: zzz')).toBeInTheDocument();
    // One request for the whole word, not one per letter.
    expect(listQueries().map((q) => q.search)).toEqual([undefined, 'zzz']);

    await user.click(screen.getByRole('button', { name: 'Clear All' }));

    expect(await screen.findByRole('article', { name: 'photo.png' })).toBeInTheDocument();
    expect(screen.queryByText('Search: zzz')).not.toBeInTheDocument();
    expect(screen.getByPlaceholderText('Search uploads...')).toHaveValue('');
    expect(screen.queryByRole('button', { name: 'Clear All' })).not.toBeInTheDocument();
  });

  it('filters by type and sorts from the menus, with a badge for each, and Clear All resets both', async () => {
    const { user, listQueries } = renderUploads(() => page([photo()]));
    await screen.findByRole('article', { name: 'photo.png' });

    await user.click(screen.getByRole('button', { name: /^File type/ }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Images' }));
    await waitFor(() => expect(listQueries().at(-1)).toMatchObject({ type: 'images' }));
    expect(screen.getByText('Type: Images')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'File type: Images' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /^Sort/ }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Most Viewed' }));
    await waitFor(() =>
      expect(listQueries().at(-1)).toMatchObject({ type: 'images', sort: 'most-viewed' }),
    );
    expect(screen.getByText('Sort: Most Viewed')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear All' }));
    await waitFor(() =>
      expect(listQueries().at(-1)).toEqual({ sort: 'newest', page: '1', limit: '20' }),
    );
    expect(screen.queryByText('Type: Images')).not.toBeInTheDocument();
    expect(screen.queryByText('Sort: Most Viewed')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'File type: All Files' })).toBeInTheDocument();
  });

  it('removes one filter from its badge', async () => {
    const { user, listQueries } = renderUploads(() => page([photo()]));
    await screen.findByRole('article', { name: 'photo.png' });
    await user.click(screen.getByRole('button', { name: /^File type/ }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Archives' }));
    await user.click(await screen.findByRole('button', { name: 'Remove filter Type: Archives' }));
    await waitFor(() => expect(listQueries().at(-1)?.type).toBeUndefined());
    expect(screen.queryByText('Type: Archives')).not.toBeInTheDocument();
  });
});

describe('Uploads page: selection and deletes', () => {
  it('Select All ticks every card, and clears them when all are ticked', async () => {
    const { user } = renderUploads(() => page([photo(), secret()]));
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
    let uploads = [photo(), secret()];
    const { user, requests, listQueries } = renderUploads(() => page(uploads), {
      'POST /api/uploads/batch/delete': () => {
        uploads = [];
        return jsonResponse(200, { deletedCount: 2 });
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
    const batch = requests.find((r) => new URL(r.url).pathname === '/api/uploads/batch/delete');
    expect(await batch!.json()).toEqual({ uploadIds: ['p1', 's1'] });
    expect(await screen.findByText('No uploads yet')).toBeInTheDocument();
    expect(listQueries()).toHaveLength(2);
    expect(screen.queryByRole('region', { name: 'Selected uploads' })).not.toBeInTheDocument();
  });

  it('keeps the selection and says so when a batch delete fails; Cancel deletes nothing', async () => {
    const { user, requests } = renderUploads(() => page([photo(), secret()]), {
      'POST /api/uploads/batch/delete': () => jsonResponse(500, { error: 'x', message: 'x' }),
    });
    await screen.findByRole('article', { name: 'photo.png' });
    await user.click(screen.getByRole('checkbox', { name: 'Select photo.png' }));
    const bar = screen.getByRole('region', { name: 'Selected uploads' });

    await user.click(within(bar).getByRole('button', { name: 'Delete 1 selected upload(s)' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }),
    );
    expect(requests.some((r) => r.method === 'POST')).toBe(false);

    await user.click(within(bar).getByRole('button', { name: 'Delete 1 selected upload(s)' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Delete 1 upload(s)? This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete uploads')).toBeInTheDocument();
    expect(screen.getByText('1 selected')).toBeInTheDocument();
  });

  it('deletes one upload after confirming with its name', async () => {
    let uploads = [photo(), secret()];
    const { user, requests } = renderUploads(() => page(uploads), {
      'DELETE /api/uploads/p1': () => {
        uploads = [secret()];
        return jsonResponse(204);
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
    expect(requests.some((r) => r.method === 'DELETE')).toBe(true);
  });

  it("says 'Failed to delete upload' when the server refuses", async () => {
    const { user } = renderUploads(() => page([photo()]), {
      'DELETE /api/uploads/p1': () => jsonResponse(404, { error: 'not_found', message: 'nope' }),
    });
    const card = await screen.findByRole('article', { name: 'photo.png' });
    await user.click(within(card).getByRole('button', { name: 'Delete photo.png' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('Failed to delete upload')).toBeInTheDocument();
  });
});

describe('Uploads page: links', () => {
  it("copies the server's link for the upload", async () => {
    const { user } = renderUploads(() => page([photo()]));
    const card = await screen.findByRole('article', { name: 'photo.png' });
    await user.click(within(card).getByRole('button', { name: 'Copy URL of photo.png' }));
    expect(await screen.findByText('URL copied to clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(`${PUBLIC_URL}/holiday`);
  });

  it('opens a private file through a signed link in a new tab', async () => {
    const tab = { opener: {}, location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const { user } = renderUploads(() => page([secret()]), {
      'GET /api/uploads/s1/access-url': () =>
        jsonResponse(200, {
          url: 'http://localhost/def567?expires=1&signature=abc',
          thumbnailUrl: 'http://localhost/thumb/def567?expires=1&signature=abc',
          expiresAt: '2030-01-01T00:00:00.000Z',
        }),
    });
    const card = await screen.findByRole('article', { name: 'secret.pdf' });

    await user.click(within(card).getByRole('button', { name: 'Open secret.pdf' }));

    expect(open).toHaveBeenCalledWith('about:blank', '_blank');
    await waitFor(() =>
      expect(tab.location.href).toBe('http://localhost/def567?expires=1&signature=abc'),
    );
    expect(tab.opener).toBeNull();
  });
});

describe('Custom Short URL dialog', () => {
  // The server's PUBLIC_URL, not jsdom's page origin: the dialog prefixes the input with it.
  const origin = PUBLIC_URL;

  function renderWithVanity(
    patch: (body: { vanityUrl: string | null }) => Response | Promise<Response>,
  ) {
    const bodies: unknown[] = [];
    const rendered = renderUploads(() => page([photo(), secret()]), {
      'PATCH /api/uploads/s1': async (request) => {
        const body = (await request.json()) as { vanityUrl: string | null };
        bodies.push(body);
        return patch(body);
      },
    });
    return { ...rendered, bodies };
  }

  async function openFor(user: ReturnType<typeof renderUploads>['user'], filename: string) {
    const card = await screen.findByRole('article', { name: filename });
    await user.click(within(card).getByRole('button', { name: `Set custom URL for ${filename}` }));
    return screen.findByRole('dialog', { name: 'Custom Short URL' });
  }

  it('previews the link as you type and saves it', async () => {
    const { user, bodies } = renderWithVanity((body) =>
      jsonResponse(200, { ...secret(), vanityUrl: body.vanityUrl }),
    );
    const dialog = await openFor(user, 'secret.pdf');
    const input = within(dialog).getByLabelText('Custom URL');
    const preview = within(dialog).getByRole('status', { name: 'Preview' });

    expect(within(dialog).getByText(`${origin}/`)).toBeInTheDocument();
    expect(input).toHaveAttribute('maxLength', '50');
    expect(preview).toHaveTextContent(`${origin}/def567`);
    expect(
      within(dialog).getByText('3-50 characters: letters, numbers, hyphens and underscores'),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText(/Current custom URL/)).not.toBeInTheDocument();

    await user.type(input, 'my-report');
    expect(preview).toHaveTextContent(`${origin}/my-report`);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Vanity URL set')).toBeInTheDocument();
    expect(bodies).toEqual([{ vanityUrl: 'my-report' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the current custom URL, and an emptied field removes it (sent as null)', async () => {
    const bodies: unknown[] = [];
    const { user } = renderUploads(() => page([photo()]), {
      'PATCH /api/uploads/p1': async (request) => {
        bodies.push(await request.json());
        return jsonResponse(200, { ...photo(), vanityUrl: null });
      },
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
    expect(bodies).toEqual([{ vanityUrl: null }]);
  });

  it("shows 'Saving...', then the server's reason, and stays open when the link is refused", async () => {
    const answer = deferred<Response>();
    const { user } = renderWithVanity(() => answer.promise);
    const dialog = await openFor(user, 'secret.pdf');

    await user.type(within(dialog).getByLabelText('Custom URL'), 'admin');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('button', { name: 'Saving...' })).toBeDisabled();
    answer.resolve(jsonResponse(409, { error: 'conflict', message: '"admin" is reserved' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('"admin" is reserved');
    expect(screen.getAllByText('"admin" is reserved')).toHaveLength(2); // the toast too
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeEnabled();
    expect(screen.getByRole('dialog', { name: 'Custom Short URL' })).toBeInTheDocument();
  });

  it("falls back to 'Failed to update vanity URL' without a server message", async () => {
    const { user } = renderWithVanity(() => {
      throw new TypeError('Failed to fetch'); // the connection dropped
    });
    const dialog = await openFor(user, 'secret.pdf');
    await user.type(within(dialog).getByLabelText('Custom URL'), 'x1y2z3');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Failed to update vanity URL',
    );
  });
});

describe('Uploads page: filters in the address', () => {
  it('writes search, type, sort and page to the query string, leaving defaults out', async () => {
    const { user, router, listQueries } = renderUploads((query) =>
      page([makeUpload({ originalFilename: `p${query.get('page')}.txt` })], {
        total: 45,
        page: Number(query.get('page')),
      }),
    );
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
    expect(listQueries().at(-1)).toEqual({
      search: 'cat',
      type: 'images',
      sort: 'oldest',
      page: '2',
      limit: '20',
    });
    // The debounce holds for the request: one for the whole word, not one per letter.
    expect(listQueries().filter((q) => q.search !== undefined)).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Clear All' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/uploads'));
  });

  it('opens a shared filtered address as it says, ignoring values it does not know', async () => {
    const { listQueries } = renderUploads(
      () => page([photo()], { total: 45, page: 2 }),
      {},
      '/uploads?search=holiday&type=images&sort=most-viewed&page=2&colour=red',
    );
    await screen.findByRole('article', { name: 'photo.png' });
    expect(listQueries()).toEqual([
      { search: 'holiday', type: 'images', sort: 'most-viewed', page: '2', limit: '20' },
    ]);
    expect(screen.getByRole('searchbox', { name: 'Search uploads' })).toHaveValue('holiday');
    expect(screen.getByRole('button', { name: 'File type: Images' })).toBeInTheDocument();
    expect(screen.getByText('Sort: Most Viewed')).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
  });

  it('reads a malformed address as the defaults', async () => {
    const { listQueries } = renderUploads(
      () => page([photo()]),
      {},
      '/uploads?type=spreadsheets&sort=sideways&page=-3',
    );
    await screen.findByRole('article', { name: 'photo.png' });
    expect(listQueries()).toEqual([{ sort: 'newest', page: '1', limit: '20' }]);
  });

  it('follows back and forward: the list, the search box and the badges', async () => {
    const { user, router, listQueries } = renderUploads((query) =>
      page(query.get('search') ? [secret()] : [photo(), secret()]),
    );
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
    expect(listQueries().at(-1)).toMatchObject({ search: 'secret' });
  });

  it('clears the selection when the filters change, by a menu or by going back', async () => {
    const { user, router } = renderUploads(() => page([photo(), secret()]));
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
