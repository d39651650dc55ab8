// The Uploads screen's tags: the card's tag editor and the tag filter, against a small
// in-memory stand-in for the tag endpoints (test/tags-server.ts).
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentUrl } from '../test/render-app.tsx';
import {
  badges,
  fakeServer,
  openCard,
  optionNames,
  renderUploads,
  serverError,
  tagged,
} from '../test/tags-server.ts';

describe('Tag editor on a card', () => {
  it('suggests at most five tags not on the upload, matching regardless of case', async () => {
    const photos = { id: 't1', name: 'Photos' };
    const server = fakeServer(
      [tagged('a.png', [photos])],
      ['Photos', 'photoshop', 'PHOTO-raw', 'Old photos', 'photo-1', 'photo-2', 'work'],
    );
    const { user } = renderUploads(server);
    const { input } = await openCard('a.png');

    await user.type(input, 'pHoTo');
    const listbox = await screen.findByRole('listbox', { name: 'Tag suggestions' });
    expect(input).toHaveAttribute('aria-expanded', 'true');
    expect(input).toHaveAttribute('aria-controls', listbox.id);
    // Five tags at most, 'Photos' left out (the upload has it): those starting with the text,
    // then those containing it; then the offer to create.
    const shown = optionNames();
    expect(shown).toHaveLength(6);
    expect(new Set(shown.slice(0, 4))).toEqual(
      new Set(['photo-1', 'photo-2', 'PHOTO-raw', 'photoshop']),
    );
    expect(shown.slice(4)).toEqual(['Old photos', 'Create "pHoTo"']);

    await user.clear(input);
    await user.type(input, 'PHOTOS');
    // A tag of that name exists (on the upload already): nothing to create.
    await waitFor(() => expect(optionNames()).toEqual(['photoshop', 'Old photos']));
  });

  it('offers no creation from blank text, and Enter on it sends nothing', async () => {
    const server = fakeServer([tagged('a.png')], []);
    const { user, writes } = renderUploads(server);
    const { input } = await openCard('a.png');

    await user.type(input, '   ');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(input).toHaveAttribute('aria-expanded', 'false');
    await user.keyboard('{Enter}');
    await user.type(input, '{ArrowDown}{Enter}');
    expect(writes()).toEqual([]);
  });

  it('creates a tag from the trimmed text and adds it, then the card and the lists reload', async () => {
    const server = fakeServer([tagged('a.png')], ['work']);
    const { user, sent, queryClient } = renderUploads(server);
    queryClient.setQueryData(['stats'], { totalUploads: 1 });
    const { card, input } = await openCard('a.png');
    await screen.findByRole('button', { name: 'Tag: All Tags' });
    const lists = sent('GET', '/api/uploads').length;
    const tagLists = sent('GET', '/api/tags').length;

    await user.type(input, '  Travel  ');
    expect(optionNames()).toEqual(['Create "Travel"']);
    await user.keyboard('{Enter}');

    expect(await screen.findByText('Tag created and added')).toBeInTheDocument();
    expect(await sent('POST', '/api/tags')[0]!.json()).toEqual({ name: 'Travel' });
    const travel = server.tagNamed('Travel');
    expect(sent('POST', `/api/tags/${travel.id}/uploads/a.png`)).toHaveLength(1);
    await waitFor(() => expect(badges(card)).toEqual(['Travel']));
    expect(input).toHaveValue('');
    expect(input).toHaveFocus();
    expect(sent('GET', '/api/uploads').length).toBeGreaterThan(lists);
    expect(sent('GET', '/api/tags').length).toBeGreaterThan(tagLists);
    expect(queryClient.getQueryState(['stats'])?.isInvalidated).toBe(true);
  });

  it('adds an existing tag by Enter on its name, by a click on a suggestion, or from the keys', async () => {
    const server = fakeServer([tagged('a.png')], ['alpha', 'beta', 'gamma']);
    const { user, writes } = renderUploads(server);
    const { card, input } = await openCard('a.png');
    const id = (name: string) => server.tagNamed(name).id;

    await user.type(input, 'BETA{Enter}');
    expect(await screen.findByText('Tag added')).toBeInTheDocument();
    await waitFor(() => expect(badges(card)).toEqual(['beta']));

    await user.type(input, 'a');
    await user.click(await screen.findByRole('option', { name: 'gamma' }));
    await waitFor(() => expect(badges(card)).toEqual(['beta', 'gamma']));

    await user.type(input, '{ArrowDown}');
    expect(optionNames()).toEqual(['alpha']);
    expect(input).toHaveAttribute(
      'aria-activedescendant',
      screen.getByRole('option', { name: 'alpha' }).id,
    );
    await user.keyboard('{Enter}');
    await waitFor(() => expect(badges(card)).toEqual(['alpha', 'beta', 'gamma']));

    expect(writes()).toEqual([
      `POST /api/tags/${id('beta')}/uploads/a.png`,
      `POST /api/tags/${id('gamma')}/uploads/a.png`,
      `POST /api/tags/${id('alpha')}/uploads/a.png`,
    ]);
  });

  it('removes a tag from its badge', async () => {
    const server = fakeServer([], ['keep', 'drop']);
    server.uploads.push(tagged('a.png', [server.tagNamed('drop'), server.tagNamed('keep')]));
    const { user, writes } = renderUploads(server);
    const { card } = await openCard('a.png');
    expect(badges(card)).toEqual(['drop', 'keep']);

    await user.click(within(card).getByRole('button', { name: 'Remove tag drop from a.png' }));

    expect(await screen.findByText('Tag removed')).toBeInTheDocument();
    await waitFor(() => expect(badges(card)).toEqual(['keep']));
    expect(writes()).toEqual([`DELETE /api/tags/${server.tagNamed('drop').id}/uploads/a.png`]);
  });

  it("says 'Tag already exists' when the server finds the name taken", async () => {
    const server = fakeServer([tagged('a.png')], []);
    const { user } = renderUploads(server);
    const { card, input } = await openCard('a.png');
    // Made elsewhere after this page read the tags: the page still offers to create it.
    server.tags.push({ id: 'late', name: 'Late' });

    await user.type(input, 'late{Enter}');

    expect(await screen.findByText('Tag already exists')).toBeInTheDocument();
    expect(badges(card)).toEqual([]);
  });

  it.each([
    ['createTag', 'new', 'Create "new"', 'Failed to create tag'],
    ['addTag', 'old', 'old', 'Failed to add tag'],
    ['addTag', 'new', 'Create "new"', 'Failed to add tag'],
  ] as const)(
    'when %s fails, entering %j says the toast',
    async (endpoint, text, option, toast) => {
      const server = fakeServer([tagged('a.png')], ['old']);
      server.fail[endpoint] = serverError;
      const { user } = renderUploads(server);
      const { card, input } = await openCard('a.png');

      await user.type(input, text);
      await screen.findByRole('option', { name: option });
      await user.keyboard('{Enter}');

      expect(await screen.findByText(toast)).toBeInTheDocument();
      expect(badges(card)).toEqual([]);
    },
  );

  it("says 'Failed to remove tag' when the server refuses", async () => {
    const server = fakeServer([], ['x']);
    server.uploads.push(tagged('a.png', [server.tagNamed('x')]));
    server.fail.removeTag = serverError;
    const { user } = renderUploads(server);
    const { card } = await openCard('a.png');
    await user.click(within(card).getByRole('button', { name: 'Remove tag x from a.png' }));
    expect(await screen.findByText('Failed to remove tag')).toBeInTheDocument();
    expect(badges(card)).toEqual(['x']);
  });
});

describe('Tag filter', () => {
  function twoUploads() {
    const server = fakeServer([], ['cats', 'dogs']);
    server.uploads.push(
      tagged('cat.png', [server.tagNamed('cats')]),
      tagged('dog.png', [server.tagNamed('dogs')]),
      tagged('plain.txt'),
    );
    return server;
  }

  it('lists the tags with their counts, narrows the list to one, and its badge or Clear All resets', async () => {
    const server = twoUploads();
    const { user, router, listQueries } = renderUploads(server);
    await screen.findByRole('article', { name: 'plain.txt' });
    const cats = server.tagNamed('cats').id;

    await user.click(screen.getByRole('button', { name: 'Tag: All Tags' }));
    expect(await screen.findByRole('menuitemradio', { name: 'All Tags' })).toBeChecked();
    expect(screen.getByRole('menuitemradio', { name: 'cats, 1 upload(s)' })).toBeInTheDocument();
    await user.click(screen.getByRole('menuitemradio', { name: 'cats, 1 upload(s)' }));

    await waitFor(() => expect(currentUrl(router)).toBe(`/uploads?tag=${cats}`));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(1));
    expect(screen.getByRole('article', { name: 'cat.png' })).toBeInTheDocument();
    expect(listQueries().at(-1)).toMatchObject({ tag: cats });
    expect(screen.getByText('Tag: cats')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Tag: cats' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove filter Tag: cats' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(3));
    expect(currentUrl(router)).toBe('/uploads');
    expect(listQueries().at(-1)?.tag).toBeUndefined();

    await user.click(screen.getByRole('button', { name: 'Tag: All Tags' }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'dogs, 1 upload(s)' }));
    await screen.findByText('Tag: dogs');
    await user.click(screen.getByRole('button', { name: 'Clear All' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(3));
    expect(currentUrl(router)).toBe('/uploads');
    expect(screen.queryByText('Tag: dogs')).not.toBeInTheDocument();
  });

  it('opens a shared address filtered by a tag', async () => {
    const server = twoUploads();
    const dogs = server.tagNamed('dogs').id;
    const first = renderUploads(server, `/uploads?tag=${dogs}`);
    await screen.findByRole('article', { name: 'dog.png' });
    expect(await screen.findByText('Tag: dogs')).toBeInTheDocument();
    expect(first.listQueries()[0]).toMatchObject({ tag: dogs });
  });

  it('drops a tag filter that names none of the user’s tags', async () => {
    const { router, listQueries } = renderUploads(twoUploads(), '/uploads?tag=gone');
    await waitFor(() => expect(currentUrl(router)).toBe('/uploads'));
    expect(router.state.historyAction).toBe('REPLACE');
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(3));
    expect(listQueries().at(-1)?.tag).toBeUndefined();
    expect(screen.queryByText('Failed to load uploads')).not.toBeInTheDocument();
  });
});
