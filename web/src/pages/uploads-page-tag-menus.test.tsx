/** The Uploads page: managing tags, and the selection bar's tag menus. */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentUrl } from '../test/render-app.tsx';
import { badges, fakeServer, renderUploads, serverError, tagged } from '../test/tags-server.ts';

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
