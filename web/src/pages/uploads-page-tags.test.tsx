// The Uploads screen's tags: the card's tag editor, the tag filter, the Manage tags dialog and
// the selection bar's tag menus, against a small in-memory stand-in for the tag endpoints.
import type { Tag, TagSummary, Upload } from '@upshot/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch } from '../test/fetch-mock.ts';
import { makeServerConfig, makeUpload, makeUser } from '../test/fixtures.ts';
import { currentUrl, renderApp } from '../test/render-app.tsx';

type Failable =
  'createTag' | 'renameTag' | 'deleteTag' | 'addTag' | 'removeTag' | 'batchAdd' | 'batchRemove';

const serverError = () => jsonResponse(500, { error: 'internal_error', message: 'boom' });

/** Tags and uploads kept as the server would keep them; `fail` makes one endpoint refuse. */
function fakeServer(uploads: Upload[], tagNames: string[]) {
  let next = 1;
  const tags: Tag[] = tagNames.map((name) => ({ id: `t${next++}`, name }));
  const fail: Partial<Record<Failable, () => Response>> = {};
  const fold = (s: string) => s.toLowerCase();
  const taken = (name: string, except?: string) =>
    tags.some((t) => t.id !== except && fold(t.name) === fold(name));
  const conflict = (name: string) =>
    jsonResponse(409, { error: 'conflict', message: `Tag "${name}" already exists` });
  const summary = (tag: Tag): TagSummary => ({
    ...tag,
    uploadCount: uploads.filter((u) => u.tags.some((t) => t.id === tag.id)).length,
  });
  const tagById = (id: string | undefined) => tags.find((t) => t.id === id);
  const uploadById = (id: string | undefined) => uploads.find((u) => u.id === id);
  const sortTags = (list: Tag[]) => list.sort((a, b) => fold(a.name).localeCompare(fold(b.name)));
  // A clone: the test reads the recorded request's body too.
  const body = async <T,>(request: Request) => (await request.clone().json()) as T;

  const handlers: Parameters<typeof mockFetch>[0] = {
    'GET /api/tags': () => jsonResponse(200, { tags: sortTags([...tags]).map(summary) }),
    'POST /api/tags': async (request) => {
      if (fail.createTag) return fail.createTag();
      const name = (await body<{ name: string }>(request)).name.trim();
      if (taken(name)) return conflict(name);
      const tag = { id: `t${next++}`, name };
      tags.push(tag);
      return jsonResponse(201, { tag: summary(tag) });
    },
    'PATCH /api/tags/:tagId': async (request, { tagId }) => {
      if (fail.renameTag) return fail.renameTag();
      const tag = tagById(tagId);
      const name = (await body<{ name: string }>(request)).name.trim();
      if (!tag) return jsonResponse(404, { error: 'not_found', message: 'Tag not found' });
      if (taken(name, tag.id)) return conflict(name);
      tag.name = name;
      for (const u of uploads) u.tags = u.tags.map((t) => (t.id === tag.id ? { ...tag } : t));
      return jsonResponse(200, { tag: summary(tag) });
    },
    'DELETE /api/tags/:tagId': (_request, { tagId }) => {
      if (fail.deleteTag) return fail.deleteTag();
      tags.splice(
        tags.findIndex((t) => t.id === tagId),
        1,
      );
      for (const u of uploads) u.tags = u.tags.filter((t) => t.id !== tagId);
      return jsonResponse(204);
    },
    'POST /api/tags/:tagId/uploads/:uploadId': (_request, { tagId, uploadId }) => {
      if (fail.addTag) return fail.addTag();
      const tag = tagById(tagId);
      const upload = uploadById(uploadId);
      if (!tag || !upload) return jsonResponse(404, { error: 'not_found', message: 'Not found' });
      if (!upload.tags.some((t) => t.id === tag.id)) {
        upload.tags = sortTags([...upload.tags, { ...tag }]);
      }
      return jsonResponse(200, upload);
    },
    'DELETE /api/tags/:tagId/uploads/:uploadId': (_request, { tagId, uploadId }) => {
      if (fail.removeTag) return fail.removeTag();
      const upload = uploadById(uploadId)!;
      upload.tags = upload.tags.filter((t) => t.id !== tagId);
      return jsonResponse(200, upload);
    },
    'POST /api/uploads/batch/add-tag': async (request) => {
      if (fail.batchAdd) return fail.batchAdd();
      const { uploadIds, tagId } = await body<{ uploadIds: string[]; tagId: string }>(request);
      const tag = tagById(tagId)!;
      let addedCount = 0;
      let skippedCount = 0;
      for (const upload of uploadIds.map(uploadById)) {
        if (!upload) continue;
        if (upload.tags.some((t) => t.id === tagId)) {
          skippedCount++;
        } else {
          upload.tags = sortTags([...upload.tags, { ...tag }]);
          addedCount++;
        }
      }
      return jsonResponse(200, { addedCount, skippedCount });
    },
    'POST /api/uploads/batch/remove-tag': async (request) => {
      if (fail.batchRemove) return fail.batchRemove();
      const { uploadIds, tagId } = await body<{ uploadIds: string[]; tagId: string }>(request);
      let removedCount = 0;
      for (const upload of uploadIds.map(uploadById)) {
        if (upload?.tags.some((t) => t.id === tagId)) {
          upload.tags = upload.tags.filter((t) => t.id !== tagId);
          removedCount++;
        }
      }
      return jsonResponse(200, { removedCount });
    },
    'GET /api/uploads': (request) => {
      const tag = new URL(request.url).searchParams.get('tag');
      if (tag && !tagById(tag)) {
        return jsonResponse(404, { error: 'not_found', message: 'Tag not found' });
      }
      const listed = tag ? uploads.filter((u) => u.tags.some((t) => t.id === tag)) : uploads;
      // Copies, as JSON would make them: the app never holds the server's objects.
      const copies = structuredClone(listed);
      return jsonResponse(200, { uploads: copies, total: copies.length, page: 1, limit: 20 });
    },
  };
  return {
    handlers,
    tags,
    uploads,
    fail,
    tagNamed: (name: string) => tags.find((t) => t.name === name)!,
  };
}

type Server = ReturnType<typeof fakeServer>;

function renderUploads(server: Server, path = '/uploads') {
  localStorage.setItem('auth_token', 'tok');
  const network = mockFetch({
    'GET /api/auth/me': () => jsonResponse(200, makeUser()),
    'GET /api/config': () => jsonResponse(200, makeServerConfig()),
    ...server.handlers,
  });
  const sent = (method: string, path: string) =>
    network.requests.filter((r) => r.method === method && new URL(r.url).pathname === path);
  const listQueries = () =>
    sent('GET', '/api/uploads').map((r) => Object.fromEntries(new URL(r.url).searchParams));
  const writes = () =>
    network.requests
      .filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${new URL(r.url).pathname}`);
  return { ...renderApp(path), ...network, sent, listQueries, writes };
}

const tagged = (name: string, tags: Tag[] = [], id = name) =>
  makeUpload({ id, originalFilename: name, tags });

async function openCard(name: string) {
  const card = await screen.findByRole('article', { name });
  const input = within(card).getByRole('combobox', { name: `Add tag to ${name}` });
  return { card, input };
}

const optionNames = () =>
  within(screen.getByRole('listbox', { name: 'Tag suggestions' }))
    .getAllByRole('option')
    .map((option) => option.textContent);

const badges = (card: HTMLElement) =>
  within(card).queryByRole('list', { name: 'Tags' })
    ? within(within(card).getByRole('list', { name: 'Tags' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent)
    : [];

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

describe('Manage tags dialog', () => {
  async function openManage(user: ReturnType<typeof renderUploads>['user']) {
    await user.click(await screen.findByRole('button', { name: /^Tag: / }));
    await user.click(await screen.findByRole('menuitem', { name: 'Manage tags' }));
    return screen.findByRole('dialog', { name: 'Manage tags' });
  }

  function server() {
    const s = fakeServer([], ['cats', 'dogs']);
    s.uploads.push(tagged('cat.png', [s.tagNamed('cats')]), tagged('both.png', s.tags.slice()));
    return s;
  }

  it('renames a tag in place with Enter, and the cards show the new name', async () => {
    const s = server();
    const { user, sent } = renderUploads(s);
    const dialog = await openManage(user);
    expect(within(dialog).getByText('2 uploads')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Rename tag cats' }));
    const field = within(dialog).getByRole('textbox', { name: 'New name for tag cats' });
    expect(field).toHaveFocus();
    await user.clear(field);
    await user.type(field, ' kittens {Enter}');

    expect(await screen.findByText('Tag renamed')).toBeInTheDocument();
    const cats = s.tagNamed('kittens').id;
    expect(await sent('PATCH', `/api/tags/${cats}`)[0]!.json()).toEqual({ name: 'kittens' });
    expect(await within(dialog).findByText('kittens')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() =>
      expect(badges(screen.getByRole('article', { name: 'cat.png' }))).toEqual(['kittens']),
    );
  });

  it("keeps the field open and says 'Tag already exists' on a taken name; Escape cancels", async () => {
    const { user, writes } = renderUploads(server());
    const dialog = await openManage(user);
    await user.click(within(dialog).getByRole('button', { name: 'Rename tag cats' }));
    const field = within(dialog).getByRole('textbox', { name: 'New name for tag cats' });
    await user.clear(field);
    await user.type(field, 'DOGS{Enter}');

    expect(await screen.findByText('Tag already exists')).toBeInTheDocument();
    expect(field).toHaveValue('DOGS');

    // Escape leaves the rename, not the dialog; nothing else was sent.
    await user.keyboard('{Escape}');
    expect(within(dialog).queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Manage tags' })).toBeInTheDocument();
    expect(writes()).toHaveLength(1);
  });

  it("says 'Failed to rename tag' and 'Failed to delete tag' when the server fails", async () => {
    const s = server();
    s.fail.renameTag = serverError;
    s.fail.deleteTag = serverError;
    const { user } = renderUploads(s);
    const dialog = await openManage(user);
    await user.click(within(dialog).getByRole('button', { name: 'Rename tag dogs' }));
    await user.type(within(dialog).getByRole('textbox'), 's{Enter}');
    expect(await screen.findByText('Failed to rename tag')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Cancel rename' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete tag dogs' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('Failed to delete tag')).toBeInTheDocument();
    expect(within(dialog).getByText('dogs')).toBeInTheDocument();
  });

  it('deletes a tag after confirming, takes it off the cards and clears it as the filter', async () => {
    const s = server();
    const cats = s.tagNamed('cats').id;
    const { user, router, writes, listQueries } = renderUploads(s, `/uploads?tag=${cats}`);
    await screen.findByText('Tag: cats');
    const dialog = await openManage(user);

    await user.click(within(dialog).getByRole('button', { name: 'Delete tag cats' }));
    let confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent('Delete tag "cats"? It will be removed from 2 upload(s).');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(writes()).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Delete tag cats' }));
    confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Tag deleted')).toBeInTheDocument();
    expect(writes()).toEqual([`DELETE /api/tags/${cats}`]);
    await waitFor(() => expect(within(dialog).queryByText('cats')).not.toBeInTheDocument());
    await waitFor(() => expect(currentUrl(router)).toBe('/uploads'));
    expect(screen.queryByText('Tag: cats')).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
    expect(badges(screen.getByRole('article', { name: 'both.png' }))).toEqual(['dogs']);
    // The list filtered by the deleted tag was not asked for again (the server would say 404).
    expect(listQueries().filter((q) => q.tag === cats)).toHaveLength(1);
    expect(screen.queryByText('Failed to load uploads')).not.toBeInTheDocument();
  });
});

describe('Selection bar tag menus', () => {
  function threeUploads(tagNames = ['work', 'play']) {
    const s = fakeServer([], tagNames);
    s.uploads.push(
      tagged('one.txt', tagNames.includes('work') ? [s.tagNamed('work')] : []),
      tagged('two.txt'),
      tagged('three.txt'),
    );
    return s;
  }

  async function selectAll(user: ReturnType<typeof renderUploads>['user']) {
    await screen.findByRole('article', { name: 'one.txt' });
    await user.click(screen.getByRole('checkbox', { name: 'Select All' }));
    return screen.getByRole('region', { name: 'Selected uploads' });
  }

  it("says 'No tags available' when there are none", async () => {
    const { user } = renderUploads(threeUploads([]));
    const bar = await selectAll(user);
    await user.click(within(bar).getByRole('button', { name: 'Add Tag' }));
    expect(await screen.findByRole('menuitem', { name: 'No tags available' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
  });

  it('adds a tag to every selected upload, says how many had it, and clears the selection', async () => {
    const s = threeUploads();
    const { user, sent } = renderUploads(s);
    const bar = await selectAll(user);

    await user.click(within(bar).getByRole('button', { name: 'Add Tag' }));
    await user.click(await screen.findByRole('menuitem', { name: 'work' }));

    expect(await screen.findByText('Tag "work" added to 2 upload(s)')).toBeInTheDocument();
    expect(
      screen.getByText('1 already had this tag').closest('[data-sonner-toast]'),
    ).toHaveAttribute('data-type', 'info');
    expect(await sent('POST', '/api/uploads/batch/add-tag')[0]!.json()).toEqual({
      uploadIds: ['one.txt', 'two.txt', 'three.txt'],
      tagId: s.tagNamed('work').id,
    });
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Selected uploads' })).not.toBeInTheDocument(),
    );
    await waitFor(() =>
      expect(badges(screen.getByRole('article', { name: 'three.txt' }))).toEqual(['work']),
    );
  });

  it('says nothing of skipped uploads when none had the tag', async () => {
    const { user } = renderUploads(threeUploads());
    const bar = await selectAll(user);
    await user.click(within(bar).getByRole('button', { name: 'Add Tag' }));
    await user.click(await screen.findByRole('menuitem', { name: 'play' }));
    expect(await screen.findByText('Tag "play" added to 3 upload(s)')).toBeInTheDocument();
    expect(screen.queryByText(/already had this tag/)).not.toBeInTheDocument();
  });

  it('removes a tag the selection carries from all of it', async () => {
    const s = threeUploads();
    const { user, sent } = renderUploads(s);
    const bar = await selectAll(user);

    await user.click(within(bar).getByRole('button', { name: 'Remove Tag' }));
    // Only the tags on the selected uploads are offered.
    expect(await screen.findByRole('menuitem', { name: 'work' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'play' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('menuitem', { name: 'work' }));

    expect(await screen.findByText('Tag "work" removed from 1 upload(s)')).toBeInTheDocument();
    expect(await sent('POST', '/api/uploads/batch/remove-tag')[0]!.json()).toEqual({
      uploadIds: ['one.txt', 'two.txt', 'three.txt'],
      tagId: s.tagNamed('work').id,
    });
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Selected uploads' })).not.toBeInTheDocument(),
    );
    await waitFor(() =>
      expect(badges(screen.getByRole('article', { name: 'one.txt' }))).toEqual([]),
    );
  });

  it('keeps the selection and says so when a batch fails', async () => {
    const s = threeUploads();
    s.fail.batchAdd = serverError;
    s.fail.batchRemove = serverError;
    const { user } = renderUploads(s);
    const bar = await selectAll(user);

    await user.click(within(bar).getByRole('button', { name: 'Add Tag' }));
    await user.click(await screen.findByRole('menuitem', { name: 'play' }));
    expect(await screen.findByText('Failed to add tag')).toBeInTheDocument();

    await user.click(within(bar).getByRole('button', { name: 'Remove Tag' }));
    await user.click(await screen.findByRole('menuitem', { name: 'work' }));
    expect(await screen.findByText('Failed to remove tag')).toBeInTheDocument();
    expect(screen.getByText('3 selected')).toBeInTheDocument();
  });
});
