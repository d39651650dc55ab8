/** The Uploads page: managing tags, and the selection bar's tag menus. */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeTag } from '../test/fixtures.ts';
import { noContent, refuse, serverError } from '../test/mock-api.ts';
import { badges } from '../test/queries.ts';
import { currentUrl } from '../test/render-app.tsx';
import { renderUploads, tagged, uploadsPage } from '../test/uploads.ts';

describe('Manage tags dialog', () => {
  const cats = makeTag('cats', 2);
  const dogs = makeTag('dogs', 1);

  async function openManage(user: ReturnType<typeof renderUploads>['user']) {
    await user.click(await screen.findByRole('button', { name: /^Tag: / }));
    await user.click(await screen.findByRole('menuitem', { name: 'Manage tags' }));
    return screen.findByRole('dialog', { name: 'Manage tags' });
  }

  it('renames a tag in place with Enter, and the cards show the new name', async () => {
    const kittens = { ...cats, name: 'kittens' };
    let renamed = false;
    const { user, sent, bodies } = renderUploads({
      listTags: () => ({ tags: renamed ? [dogs, kittens] : [cats, dogs] }),
      listUploads: () => uploadsPage([tagged('cat.png', [renamed ? kittens : cats])]),
      renameTag: () => {
        renamed = true;
        return { tag: kittens };
      },
    });
    const dialog = await openManage(user);
    expect(within(dialog).getByText('2 uploads')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Rename tag cats' }));
    const field = within(dialog).getByRole('textbox', { name: 'New name for tag cats' });
    expect(field).toHaveFocus();
    await user.clear(field);
    await user.type(field, ' kittens {Enter}');

    expect(await screen.findByText('Tag renamed')).toBeInTheDocument();
    expect(new URL(sent('renameTag')[0]!.url).pathname).toBe(`/api/tags/${cats.id}`);
    expect(await bodies('renameTag')).toEqual([{ name: 'kittens' }]);
    expect(await within(dialog).findByText('kittens')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() =>
      expect(badges(screen.getByRole('article', { name: 'cat.png' }))).toEqual(['kittens']),
    );
  });

  it("keeps the field open and says 'Tag already exists' on a taken name; Escape cancels", async () => {
    const { user, writes } = renderUploads({
      listTags: { tags: [cats, dogs] },
      renameTag: refuse(409, 'Tag "DOGS" already exists'),
    });
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
    expect(writes()).toEqual([`PATCH /api/tags/${cats.id}`]);
  });

  it("says 'Failed to rename tag' and 'Failed to delete tag' when the server fails", async () => {
    const { user } = renderUploads({
      listTags: { tags: [cats, dogs] },
      renameTag: serverError(),
      deleteTag: serverError(),
    });
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

  it('says when the tags cannot be loaded, and tries again', async () => {
    let loaded = false;
    const { user } = renderUploads({
      listTags: () => (loaded ? { tags: [cats] } : serverError()),
    });
    const dialog = await openManage(user);
    expect(await within(dialog).findByText('The tags could not be loaded.')).toBeInTheDocument();
    loaded = true;
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByText('cats')).toBeInTheDocument();
  });

  it('deletes a tag after confirming, takes it off the cards and clears it as the filter', async () => {
    let deleted = false;
    const { user, router, writes, queries } = renderUploads(
      {
        listTags: () => ({ tags: deleted ? [dogs] : [cats, dogs] }),
        listUploads: ({ query }) => {
          // Once the tag is gone, the list filtered by it is a 404, as the server answers it.
          if (query.get('tag') === cats.id) {
            return deleted
              ? refuse(404, 'Tag not found')
              : uploadsPage([tagged('cat.png', [cats]), tagged('both.png', [cats, dogs])]);
          }
          return uploadsPage(
            deleted
              ? [tagged('cat.png'), tagged('both.png', [dogs])]
              : [tagged('cat.png', [cats]), tagged('both.png', [cats, dogs])],
          );
        },
        deleteTag: () => {
          deleted = true;
          return noContent();
        },
      },
      `/uploads?tag=${cats.id}`,
    );
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
    expect(writes()).toEqual([`DELETE /api/tags/${cats.id}`]);
    await waitFor(() => expect(within(dialog).queryByText('cats')).not.toBeInTheDocument());
    await waitFor(() => expect(currentUrl(router)).toBe('/uploads'));
    expect(screen.queryByText('Tag: cats')).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
    expect(badges(screen.getByRole('article', { name: 'both.png' }))).toEqual(['dogs']);
    // The list filtered by the deleted tag was not asked for again (the server would say 404).
    expect(queries('listUploads').filter((q) => q.tag === cats.id)).toHaveLength(1);
    expect(screen.queryByText('Failed to load uploads')).not.toBeInTheDocument();
  });
});

describe('Selection bar tag menus', () => {
  const work = makeTag('work', 1);
  const play = makeTag('play');
  const three = (workOnAll = false) =>
    uploadsPage([
      tagged('one.txt', [work]),
      tagged('two.txt', workOnAll ? [work] : []),
      tagged('three.txt', workOnAll ? [work] : []),
    ]);

  async function selectAll(user: ReturnType<typeof renderUploads>['user']) {
    await screen.findByRole('article', { name: 'one.txt' });
    await user.click(screen.getByRole('checkbox', { name: 'Select All' }));
    return screen.getByRole('region', { name: 'Selected uploads' });
  }

  it("says 'No tags available' when there are none", async () => {
    const { user } = renderUploads({
      listUploads: uploadsPage([tagged('one.txt'), tagged('two.txt')]),
    });
    const bar = await selectAll(user);
    await user.click(within(bar).getByRole('button', { name: 'Add Tag' }));
    expect(await screen.findByRole('menuitem', { name: 'No tags available' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
  });

  it('adds a tag to every selected upload, says how many had it, and clears the selection', async () => {
    let added = false;
    const { user, bodies } = renderUploads({
      listTags: { tags: [play, work] },
      listUploads: () => three(added),
      batchAddTag: () => {
        added = true;
        return { addedCount: 2, skippedCount: 1, fullCount: 0 };
      },
    });
    const bar = await selectAll(user);

    await user.click(within(bar).getByRole('button', { name: 'Add Tag' }));
    await user.click(await screen.findByRole('menuitem', { name: 'work' }));

    expect(await screen.findByText('Tag "work" added to 2 upload(s)')).toBeInTheDocument();
    expect(
      screen.getByText('1 already had this tag').closest('[data-sonner-toast]'),
    ).toHaveAttribute('data-type', 'info');
    expect(await bodies('batchAddTag')).toEqual([
      { uploadIds: ['one.txt', 'two.txt', 'three.txt'], tagId: work.id },
    ]);
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Selected uploads' })).not.toBeInTheDocument(),
    );
    await waitFor(() =>
      expect(badges(screen.getByRole('article', { name: 'three.txt' }))).toEqual(['work']),
    );
  });

  it('says how many could take no more tags, as an info toast', async () => {
    const { user } = renderUploads({
      listTags: { tags: [play, work] },
      listUploads: () => three(false),
      batchAddTag: { addedCount: 1, skippedCount: 0, fullCount: 2 },
    });
    const bar = await selectAll(user);
    await user.click(within(bar).getByRole('button', { name: 'Add Tag' }));
    await user.click(await screen.findByRole('menuitem', { name: 'work' }));
    expect(await screen.findByText('Tag "work" added to 1 upload(s)')).toBeInTheDocument();
    expect(
      screen.getByText('2 already carry 50 tags (the most allowed)').closest('[data-sonner-toast]'),
    ).toHaveAttribute('data-type', 'info');
  });

  it('says nothing of skipped uploads when none had the tag', async () => {
    const { user } = renderUploads({
      listTags: { tags: [play, work] },
      listUploads: three(),
      batchAddTag: { addedCount: 3, skippedCount: 0, fullCount: 0 },
    });
    const bar = await selectAll(user);
    await user.click(within(bar).getByRole('button', { name: 'Add Tag' }));
    await user.click(await screen.findByRole('menuitem', { name: 'play' }));
    expect(await screen.findByText('Tag "play" added to 3 upload(s)')).toBeInTheDocument();
    expect(screen.queryByText(/already had this tag/)).not.toBeInTheDocument();
  });

  it('removes a tag the selection carries from all of it', async () => {
    let removed = false;
    const { user, bodies } = renderUploads({
      listTags: { tags: [play, work] },
      listUploads: () =>
        removed
          ? uploadsPage([tagged('one.txt'), tagged('two.txt'), tagged('three.txt')])
          : three(),
      batchRemoveTag: () => {
        removed = true;
        return { removedCount: 1 };
      },
    });
    const bar = await selectAll(user);

    await user.click(within(bar).getByRole('button', { name: 'Remove Tag' }));
    // Only the tags on the selected uploads are offered.
    expect(await screen.findByRole('menuitem', { name: 'work' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'play' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('menuitem', { name: 'work' }));

    expect(await screen.findByText('Tag "work" removed from 1 upload(s)')).toBeInTheDocument();
    expect(await bodies('batchRemoveTag')).toEqual([
      { uploadIds: ['one.txt', 'two.txt', 'three.txt'], tagId: work.id },
    ]);
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Selected uploads' })).not.toBeInTheDocument(),
    );
    await waitFor(() =>
      expect(badges(screen.getByRole('article', { name: 'one.txt' }))).toEqual([]),
    );
  });

  it('keeps the selection and says so when a batch fails', async () => {
    const { user } = renderUploads({
      listTags: { tags: [play, work] },
      listUploads: three(),
      batchAddTag: serverError(),
      batchRemoveTag: serverError(),
    });
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
