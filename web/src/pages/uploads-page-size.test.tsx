// The Uploads page's size comes from the user's preferences (uploadsPerPage); a page past the
// last one steps back to it.
import type { Upload } from '@upshot/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred, jsonResponse, mockFetch } from '../test/fetch-mock.ts';
import { makePreferences, makeServerConfig, makeUpload, makeUser } from '../test/fixtures.ts';
import { currentUrl, renderApp } from '../test/render-app.tsx';

const uploads = Array.from({ length: 12 }, (_, i) =>
  makeUpload({ id: `u${i}`, originalFilename: `file-${i}.txt` }),
);

function renderUploads(preferences: () => Response | Promise<Response>, path = '/uploads') {
  localStorage.setItem('auth_token', 'tok');
  const network = mockFetch({
    'GET /api/auth/me': () => jsonResponse(200, makeUser()),
    'GET /api/config': () => jsonResponse(200, makeServerConfig()),
    'GET /api/tags': () => jsonResponse(200, { tags: [] }),
    'GET /api/preferences': preferences,
    'GET /api/uploads': (request) => {
      const query = new URL(request.url).searchParams;
      const limit = Number(query.get('limit'));
      const page = Number(query.get('page') ?? 1);
      const list: Upload[] = uploads.slice((page - 1) * limit, page * limit);
      return jsonResponse(200, { uploads: list, total: uploads.length, page, limit });
    },
  });
  const listQueries = () =>
    network.requests
      .filter((r) => new URL(r.url).pathname === '/api/uploads')
      .map((r) => Object.fromEntries(new URL(r.url).searchParams));
  return { ...renderApp(path), listQueries };
}

const preferences = (uploadsPerPage: number) => () =>
  jsonResponse(200, { preferences: makePreferences({ uploadsPerPage }) });

describe('Uploads page: page size', () => {
  it('asks for uploadsPerPage uploads a page, once the preferences have answered', async () => {
    const answer = deferred<Response>();
    const { listQueries } = renderUploads(() => answer.promise);
    expect(await screen.findByText('Loading...')).toBeInTheDocument();
    expect(listQueries()).toEqual([]); // no list at a size about to change

    answer.resolve(preferences(10)());
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(10));
    expect(listQueries()).toEqual([{ sort: 'newest', page: '1', limit: '10' }]);
    expect(screen.getByRole('navigation', { name: /pagination/i })).toBeInTheDocument();
  });

  it('keeps the filters of the address, at the preferred size', async () => {
    const { listQueries } = renderUploads(preferences(50), '/uploads?type=documents&page=2');
    await waitFor(() =>
      expect(listQueries()).toEqual([
        { type: 'documents', sort: 'newest', page: '2', limit: '50' },
      ]),
    );
  });

  it('falls back to 20 a page when the preferences cannot be loaded', async () => {
    const { listQueries } = renderUploads(() =>
      jsonResponse(500, { error: 'internal_error', message: 'boom' }),
    );
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(12));
    expect(listQueries().map((q) => q.limit)).toEqual(['20']);
  });

  it('steps back to the last page when the one asked for is past the end', async () => {
    const { router } = renderUploads(preferences(10), '/uploads?page=3');
    await waitFor(() => expect(currentUrl(router)).toBe('/uploads?page=2'));
    expect(router.state.historyAction).toBe('REPLACE');
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
  });
});
