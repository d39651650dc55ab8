// The Uploads page's size comes from the user's preferences (uploadsPerPage); a page past the
// last one steps back to it.
import type { PreferencesResponse } from '@upshot/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred } from '../test/fetch-mock.ts';
import { makePreferences, makeUpload } from '../test/fixtures.ts';
import { serverError, type Handler } from '../test/mock-api.ts';
import { currentUrl } from '../test/render-app.tsx';
import { renderUploads, uploadsPage } from '../test/uploads.ts';

const uploads = Array.from({ length: 12 }, (_, i) =>
  makeUpload({ id: `u${i}`, originalFilename: `file-${i}.txt` }),
);

/** Twelve uploads, the page asked for of them at the size asked for. */
function renderWithPreferences(getPreferences: Handler<'getPreferences'>, path = '/uploads') {
  return renderUploads(
    {
      getPreferences,
      listUploads: ({ query }) => {
        const limit = Number(query.get('limit'));
        const page = Number(query.get('page') ?? 1);
        return uploadsPage(uploads.slice((page - 1) * limit, page * limit), {
          total: uploads.length,
          page,
          limit,
        });
      },
    },
    path,
  );
}

const preferences = (uploadsPerPage: number): PreferencesResponse => ({
  preferences: makePreferences({ uploadsPerPage }),
});

describe('Uploads page: page size', () => {
  it('asks for uploadsPerPage uploads a page, once the preferences have answered', async () => {
    const answer = deferred<PreferencesResponse>();
    const { queries } = renderWithPreferences(() => answer.promise);
    expect(await screen.findByText('Loading...')).toBeInTheDocument();
    expect(queries('listUploads')).toEqual([]); // no list at a size about to change

    answer.resolve(preferences(10));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(10));
    expect(queries('listUploads')).toEqual([{ sort: 'newest', page: '1', limit: '10' }]);
    expect(screen.getByRole('navigation', { name: /pagination/i })).toBeInTheDocument();
  });

  it('keeps the filters of the address, at the preferred size', async () => {
    const { queries } = renderWithPreferences(preferences(50), '/uploads?type=documents&page=2');
    await waitFor(() =>
      expect(queries('listUploads')).toEqual([
        { type: 'documents', sort: 'newest', page: '2', limit: '50' },
      ]),
    );
  });

  it('falls back to 20 a page when the preferences cannot be loaded', async () => {
    const { queries } = renderWithPreferences(serverError());
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(12));
    expect(queries('listUploads').map((q) => q.limit)).toEqual(['20']);
  });

  it('steps back to the last page when the one asked for is past the end', async () => {
    const { router } = renderWithPreferences(preferences(10), '/uploads?page=3');
    await waitFor(() => expect(currentUrl(router)).toBe('/uploads?page=2'));
    expect(router.state.historyAction).toBe('REPLACE');
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
  });
});
