// The Uploads screen's tags: the card's tag editor and the tag filter.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeTag } from '../test/fixtures.ts';
import { refuse, reply, serverError } from '../test/mock-api.ts';
import { badges, openCard, optionNames } from '../test/queries.ts';
import { currentUrl } from '../test/render-app.tsx';
import { renderUploads, tagged, uploadsPage } from '../test/uploads.ts';

const path = (request: Request) => new URL(request.url).pathname;

describe('Tag editor on a card', () => {
  it('suggests at most five tags not on the upload, matching regardless of case', async () => {
    const names = ['Photos', 'photoshop', 'PHOTO-raw', 'Old photos', 'photo-1', 'photo-2', 'work'];
    const tags = names.map((name) => makeTag(name));
    const { user } = renderUploads({
      listTags: { tags },
      listUploads: uploadsPage([tagged('a.png', [tags[0]!])]),
    });
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
    const { user, writes } = renderUploads({ listUploads: uploadsPage([tagged('a.png')]) });
    const { input } = await openCard('a.png');

    await user.type(input, '   ');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(input).toHaveAttribute('aria-expanded', 'false');
    await user.keyboard('{Enter}');
    await user.type(input, '{ArrowDown}{Enter}');
    expect(writes()).toEqual([]);
  });

  it('creates a tag from the trimmed text and adds it, then the card and the lists reload', async () => {
    const work = makeTag('work');
    const travel = makeTag('Travel', 1);
    let added = false;
    const { user, sent, bodies, queryClient } = renderUploads({
      listTags: () => ({ tags: added ? [travel, work] : [work] }),
      listUploads: () => uploadsPage([tagged('a.png', added ? [travel] : [])]),
      createTag: reply(201, { tag: { ...travel, uploadCount: 0 } }),
      addTagToUpload: () => {
        added = true;
        return tagged('a.png', [travel]);
      },
    });
    queryClient.setQueryData(['stats'], { totalUploads: 1 });
    const { card, input } = await openCard('a.png');
    await screen.findByRole('button', { name: 'Tag: All Tags' });
    const lists = sent('listUploads').length;
    const tagLists = sent('listTags').length;

    await user.type(input, '  Travel  ');
    expect(optionNames()).toEqual(['Create "Travel"']);
    await user.keyboard('{Enter}');

    expect(await screen.findByText('Tag created and added')).toBeInTheDocument();
    expect(await bodies('createTag')).toEqual([{ name: 'Travel' }]);
    expect(sent('addTagToUpload').map(path)).toEqual([`/api/tags/${travel.id}/uploads/a.png`]);
    await waitFor(() => expect(badges(card)).toEqual(['Travel']));
    expect(input).toHaveValue('');
    expect(input).toHaveFocus();
    expect(sent('listUploads').length).toBeGreaterThan(lists);
    expect(sent('listTags').length).toBeGreaterThan(tagLists);
    expect(queryClient.getQueryState(['stats'])?.isInvalidated).toBe(true);
  });

  it('adds an existing tag by Enter on its name, by a click on a suggestion, or from the keys', async () => {
    const tags = ['alpha', 'beta', 'gamma'].map((name) => makeTag(name));
    let onCard: typeof tags = [];
    const { user, writes } = renderUploads({
      listTags: { tags },
      listUploads: () => uploadsPage([tagged('a.png', onCard)]),
      addTagToUpload: ({ params }) => {
        onCard = [...onCard, tags.find((tag) => tag.id === params.tagId)!];
        return tagged('a.png', onCard);
      },
    });
    const { card, input } = await openCard('a.png');

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
    await waitFor(() => expect(badges(card)).toEqual(['beta', 'gamma', 'alpha']));

    expect(writes()).toEqual([
      'POST /api/tags/t-beta/uploads/a.png',
      'POST /api/tags/t-gamma/uploads/a.png',
      'POST /api/tags/t-alpha/uploads/a.png',
    ]);
  });

  it('removes a tag from its badge', async () => {
    const [drop, keep] = [makeTag('drop', 1), makeTag('keep', 1)];
    let removed = false;
    const { user, writes } = renderUploads({
      listTags: { tags: [drop!, keep!] },
      listUploads: () => uploadsPage([tagged('a.png', removed ? [keep!] : [drop!, keep!])]),
      removeTagFromUpload: () => {
        removed = true;
        return tagged('a.png', [keep!]);
      },
    });
    const { card } = await openCard('a.png');
    expect(badges(card)).toEqual(['drop', 'keep']);

    await user.click(within(card).getByRole('button', { name: 'Remove tag drop from a.png' }));

    expect(await screen.findByText('Tag removed')).toBeInTheDocument();
    await waitFor(() => expect(badges(card)).toEqual(['keep']));
    expect(writes()).toEqual(['DELETE /api/tags/t-drop/uploads/a.png']);
  });

  it("says 'Tag already exists' when the server finds the name taken", async () => {
    // Made elsewhere after this page read the tags: the page still offers to create it.
    const { user, writes } = renderUploads({
      listUploads: uploadsPage([tagged('a.png')]),
      createTag: refuse(409, 'Tag "late" already exists'),
    });
    const { card, input } = await openCard('a.png');

    await user.type(input, 'late{Enter}');

    expect(await screen.findByText('Tag already exists')).toBeInTheDocument();
    expect(badges(card)).toEqual([]);
    expect(writes()).toEqual(['POST /api/tags']);
  });

  it.each([
    ['creating', 'new', 'Create "new"', 'Failed to create tag'],
    ['adding', 'old', 'old', 'Failed to add tag'],
    ['adding', 'new', 'Create "new"', 'Failed to add tag'],
  ] as const)('when %s fails, entering %j says the toast', async (failing, text, option, toast) => {
    const { user } = renderUploads({
      listTags: { tags: [makeTag('old')] },
      listUploads: uploadsPage([tagged('a.png')]),
      createTag: failing === 'creating' ? serverError() : reply(201, { tag: makeTag('new') }),
      addTagToUpload: serverError(),
    });
    const { card, input } = await openCard('a.png');

    await user.type(input, text);
    await screen.findByRole('option', { name: option });
    await user.keyboard('{Enter}');

    expect(await screen.findByText(toast)).toBeInTheDocument();
    expect(badges(card)).toEqual([]);
  });

  it("says 'Failed to remove tag' when the server refuses", async () => {
    const x = makeTag('x', 1);
    const { user } = renderUploads({
      listTags: { tags: [x] },
      listUploads: uploadsPage([tagged('a.png', [x])]),
      removeTagFromUpload: serverError(),
    });
    const { card } = await openCard('a.png');
    await user.click(within(card).getByRole('button', { name: 'Remove tag x from a.png' }));
    expect(await screen.findByText('Failed to remove tag')).toBeInTheDocument();
    expect(badges(card)).toEqual(['x']);
  });
});

describe('Tag filter', () => {
  const cats = makeTag('cats', 1);
  const dogs = makeTag('dogs', 1);
  const cat = tagged('cat.png', [cats]);
  const dog = tagged('dog.png', [dogs]);
  const plain = tagged('plain.txt');

  /** The list filtered by tag as the server filters it; a tag it does not know is a 404. */
  const answers = {
    listTags: { tags: [cats, dogs] },
    listUploads: ({ query }: { query: URLSearchParams }) => {
      const tag = query.get('tag');
      if (tag === null) return uploadsPage([cat, dog, plain]);
      if (tag === cats.id) return uploadsPage([cat]);
      if (tag === dogs.id) return uploadsPage([dog]);
      return refuse(404, 'Tag not found');
    },
  };

  it('lists the tags with their counts, narrows the list to one, and its badge or Clear All resets', async () => {
    const { user, router, queries } = renderUploads(answers);
    await screen.findByRole('article', { name: 'plain.txt' });

    await user.click(screen.getByRole('button', { name: 'Tag: All Tags' }));
    expect(await screen.findByRole('menuitemradio', { name: 'All Tags' })).toBeChecked();
    expect(screen.getByRole('menuitemradio', { name: 'cats, 1 upload(s)' })).toBeInTheDocument();
    await user.click(screen.getByRole('menuitemradio', { name: 'cats, 1 upload(s)' }));

    await waitFor(() => expect(currentUrl(router)).toBe(`/uploads?tag=${cats.id}`));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(1));
    expect(screen.getByRole('article', { name: 'cat.png' })).toBeInTheDocument();
    expect(queries('listUploads').at(-1)).toMatchObject({ tag: cats.id });
    expect(screen.getByText('Tag: cats')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Tag: cats' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove filter Tag: cats' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(3));
    expect(currentUrl(router)).toBe('/uploads');
    expect(queries('listUploads').at(-1)?.tag).toBeUndefined();

    await user.click(screen.getByRole('button', { name: 'Tag: All Tags' }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'dogs, 1 upload(s)' }));
    await screen.findByText('Tag: dogs');
    await user.click(screen.getByRole('button', { name: 'Clear All' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(3));
    expect(currentUrl(router)).toBe('/uploads');
    expect(screen.queryByText('Tag: dogs')).not.toBeInTheDocument();
  });

  it('opens a shared address filtered by a tag', async () => {
    const { queries } = renderUploads(answers, `/uploads?tag=${dogs.id}`);
    await screen.findByRole('article', { name: 'dog.png' });
    expect(await screen.findByText('Tag: dogs')).toBeInTheDocument();
    expect(queries('listUploads')[0]).toMatchObject({ tag: dogs.id });
  });

  it('drops a tag filter that names none of the user’s tags', async () => {
    const { router, queries } = renderUploads(answers, '/uploads?tag=gone');
    await waitFor(() => expect(currentUrl(router)).toBe('/uploads'));
    expect(router.state.historyAction).toBe('REPLACE');
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(3));
    expect(queries('listUploads').at(-1)?.tag).toBeUndefined();
    expect(screen.queryByText('Failed to load uploads')).not.toBeInTheDocument();
  });
});
