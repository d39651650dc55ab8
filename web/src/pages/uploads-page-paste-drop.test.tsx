// Paste and drop anywhere on the Uploads screen: files join the upload dialog's queue, pasted
// text opens New text, and a paste into a text field is the field's.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AUTO_CLOSE_DELAY_MS } from '../features/uploads/components/upload-dialog.tsx';
import { makeTag, makeUpload, makeUploadResponse } from '../test/fixtures.ts';
import { mockXhr, type FakeXhrRequest } from '../test/xhr-mock.ts';
import { renderUploads } from '../test/uploads.ts';

/** What a paste event carries, as a browser's clipboard gives it. */
function clipboard({ files = [], text = '' }: { files?: File[]; text?: string }) {
  return {
    files,
    items: [
      ...files.map((file) => ({ kind: 'file', type: file.type, getAsFile: () => file })),
      ...(text ? [{ kind: 'string', type: 'text/plain', getAsFile: () => null }] : []),
    ],
    types: [...(files.length > 0 ? ['Files'] : []), ...(text ? ['text/plain'] : [])],
    getData: (format: string) => (format === 'text/plain' ? text : ''),
  };
}

/** What a drag carries: files from the desktop, or text and links from a page. */
function dragged(files: File[], types = ['Files']) {
  const items = files.map((file) => ({ kind: 'file', type: file.type, getAsFile: () => file }));
  return { dataTransfer: { files, types, items, dropEffect: 'none' } };
}

const picture = () =>
  new File([new Uint8Array([137, 80, 78, 71])], 'image.png', { type: 'image/png' });

async function renderScreen() {
  const app = renderUploads();
  await screen.findByText('No uploads yet');
  return app;
}

const overlayText = () => screen.queryByText('Drop files to upload');
const queued = (dialog: HTMLElement) =>
  within(within(dialog).getByRole('list', { name: 'Files to upload' }))
    .getAllByRole('listitem')
    .map((item) => item.getAttribute('aria-label'));

describe('Uploads page: paste', () => {
  it('queues a pasted picture in the upload dialog, opening it, and a second one after it', async () => {
    await renderScreen();
    const handled = !fireEvent.paste(document.body, {
      clipboardData: clipboard({ files: [picture()] }),
    });
    expect(handled).toBe(true); // the page took it: the browser does nothing more with it

    const dialog = await screen.findByRole('dialog', { name: 'Upload Files' });
    const [pasted] = queued(dialog);
    expect(pasted).toMatch(/^paste-.+\.png$/);

    // With the dialog open (focus is in it), another paste joins the same queue; a copied file
    // that comes with its name as text is the file.
    const notes = new File(['notes'], 'notes.txt', { type: 'text/plain' });
    fireEvent.paste(within(dialog).getByRole('button', { name: 'Cancel' }), {
      clipboardData: clipboard({ files: [notes], text: 'notes.txt' }),
    });
    await waitFor(() => expect(queued(dialog)).toEqual([pasted, 'notes.txt']));
    expect(within(dialog).getByRole('button', { name: 'Upload 2 file(s)' })).toBeEnabled();
    expect(screen.queryByRole('dialog', { name: 'New text' })).toBeNull();
  });

  it('offers pasted text as a new text upload, and sends nothing until saved', async () => {
    const { user, writes } = await renderScreen();
    const text = 'line one\n  line two\n';
    fireEvent.paste(document.body, { clipboardData: clipboard({ text }) });

    const dialog = await screen.findByRole('dialog', { name: 'New text' });
    expect(within(dialog).getByRole('textbox', { name: 'Text' })).toHaveValue(text);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(writes()).toEqual([]);

    // Blank text is nothing to offer.
    fireEvent.paste(document.body, { clipboardData: clipboard({ text: ' \n ' }) });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('leaves a paste into a text field to the field', async () => {
    const { user } = await renderScreen();
    const search = screen.getByRole('searchbox', { name: 'Search uploads' });
    await user.click(search);
    await user.paste('holiday');
    expect(search).toHaveValue('holiday');

    const notHandled = fireEvent.paste(search, {
      clipboardData: clipboard({ files: [picture()], text: 'image.png' }),
    });
    expect(notHandled).toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();

    // Nor does a paste into New text's own fields open anything else.
    await user.click(screen.getByRole('button', { name: 'New text' }));
    const dialog = await screen.findByRole('dialog', { name: 'New text' });
    const textarea = within(dialog).getByRole('textbox', { name: 'Text' });
    await user.click(textarea);
    await user.paste('pasted in the box');
    expect(textarea).toHaveValue('pasted in the box');
    fireEvent.paste(textarea, { clipboardData: clipboard({ files: [picture()] }) });
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
  });
});

describe('Uploads page: paste and drop while a dialog is open', () => {
  it('takes nothing while a dialog of another part of the screen is open (Manage tags)', async () => {
    const { user } = renderUploads({ listTags: { tags: [makeTag('cats', 1)] } });
    await user.click(await screen.findByRole('button', { name: /^Tag: / }));
    await user.click(await screen.findByRole('menuitem', { name: 'Manage tags' }));
    const manage = await screen.findByRole('dialog', { name: 'Manage tags' });

    fireEvent.paste(manage, { clipboardData: clipboard({ text: 'some notes' }) });
    fireEvent.paste(manage, { clipboardData: clipboard({ files: [picture()] }) });
    fireEvent.dragEnter(manage, dragged([]));
    expect(overlayText()).toBeNull();
    fireEvent.drop(manage, dragged([picture()]));
    await Promise.resolve();
    expect(
      screen.getAllByRole('dialog').map((d) => d.getAttribute('aria-labelledby')),
    ).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'Manage tags' })).toBeInTheDocument();
  });

  it('keeps a file pasted while a batch is sent for the next one: the dialog stays open', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const held: FakeXhrRequest[] = [];
    mockXhr((request) => void held.push(request));
    const { user } = await renderScreen();
    const text = (name: string) => new File([name], name, { type: 'text/plain' });
    fireEvent.paste(document.body, { clipboardData: clipboard({ files: [text('a.txt')] }) });
    const dialog = await screen.findByRole('dialog', { name: 'Upload Files' });
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 1 file(s)' }));
    await waitFor(() => expect(held).toHaveLength(1));

    fireEvent.paste(document.body, { clipboardData: clipboard({ files: [text('b.txt')] }) });
    await waitFor(() => expect(queued(dialog)).toEqual(['a.txt', 'b.txt']));
    held[0]!.respond(201, makeUploadResponse(makeUpload({ originalFilename: 'a.txt' })));
    expect(await screen.findByText('1 file(s) uploaded successfully')).toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(AUTO_CLOSE_DELAY_MS + 100);
    });
    expect(screen.getByRole('dialog', { name: 'Upload Files' })).toBeInTheDocument();
    const waiting = within(dialog).getByRole('listitem', { name: 'b.txt' });
    expect(within(waiting).getByRole('img', { name: 'Pending' })).toBeInTheDocument();
    expect(held).toHaveLength(1);
    vi.useRealTimers();
  });

  it('names a pasted picture by the date and time, not the browser\'s "image.png"', async () => {
    await renderScreen();
    fireEvent.paste(document.body, { clipboardData: clipboard({ files: [picture()] }) });
    const dialog = await screen.findByRole('dialog', { name: 'Upload Files' });
    expect(queued(dialog)[0]).toMatch(/^paste-\d{4}-\d{2}-\d{2}-\d{6}\.png$/);
  });
});

describe('Uploads page: drop', () => {
  it('shows where dragged files go, and queues them when dropped anywhere', async () => {
    await renderScreen();
    const heading = screen.getByRole('heading', { name: 'Uploads' });

    // Text or a link dragged over the page is not files: nothing shows.
    fireEvent.dragEnter(heading, dragged([], ['text/plain', 'text/uri-list']));
    expect(overlayText()).toBeNull();
    fireEvent.dragLeave(heading, dragged([], ['text/plain', 'text/uri-list']));

    fireEvent.dragEnter(heading, dragged([]));
    expect(overlayText()).toBeInTheDocument();
    // Decorative: hidden from screen readers, and it lets the drag through.
    expect(overlayText()!.closest('[aria-hidden="true"]')).toHaveClass('pointer-events-none');
    expect(screen.getByText(/They join the Upload Files list/)).toBeInTheDocument();

    // Crossing from one element to another keeps it; leaving the last one hides it.
    const search = screen.getByRole('searchbox', { name: 'Search uploads' });
    fireEvent.dragEnter(search, dragged([]));
    fireEvent.dragLeave(heading, dragged([]));
    expect(overlayText()).toBeInTheDocument();
    const over = dragged([]);
    expect(fireEvent.dragOver(search, over)).toBe(false); // a drop here is taken
    expect(over.dataTransfer.dropEffect).toBe('copy');
    fireEvent.dragLeave(search, dragged([]));
    expect(overlayText()).toBeNull();

    fireEvent.dragEnter(heading, dragged([]));
    const files = [picture(), new File(['a'], 'a.txt', { type: 'text/plain' })];
    expect(fireEvent.drop(heading, dragged(files))).toBe(false);
    expect(overlayText()).toBeNull();
    const dialog = await screen.findByRole('dialog', { name: 'Upload Files' });
    expect(queued(dialog)).toEqual(['image.png', 'a.txt']);
  });

  it('queues the files inside a dropped folder, not the folder', async () => {
    await renderScreen();
    const inside = [new File(['1'], 'one.txt'), new File(['2'], 'two.txt')];
    const entry = (file: File) => ({
      isFile: true,
      isDirectory: false,
      name: file.name,
      fullPath: `/notes/${file.name}`,
      file: (done: (f: File) => void) => done(file),
    });
    let listed = false;
    const folder = {
      isFile: false,
      isDirectory: true,
      name: 'notes',
      fullPath: '/notes',
      createReader: () => ({
        readEntries: (done: (entries: unknown[]) => void) => {
          const batch = listed ? [] : inside.map(entry);
          listed = true;
          done(batch);
        },
      }),
    };
    // What a browser hands over for a folder: an entry in `files` that is no file.
    const notAFile = new File([], 'notes');
    const drop = {
      dataTransfer: {
        files: [notAFile],
        types: ['Files'],
        items: [
          { kind: 'file', type: '', getAsFile: () => notAFile, webkitGetAsEntry: () => folder },
        ],
      },
    };
    fireEvent.dragEnter(document.body, drop);
    fireEvent.drop(document.body, drop);
    const dialog = await screen.findByRole('dialog', { name: 'Upload Files' });
    expect(queued(dialog)).toEqual(['one.txt', 'two.txt']);
  });

  it("queues a drop on the dialog's own zone once", async () => {
    const { user } = await renderScreen();
    await user.click(screen.getAllByRole('button', { name: 'Upload Files' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Upload Files' });
    const zone = within(dialog)
      .getByText('Drop files here or click to browse')
      .closest<HTMLElement>('[tabindex="0"]')!;
    fireEvent.dragEnter(zone, dragged([picture()]));
    await waitFor(() => expect(zone).toHaveClass('border-brand')); // the zone's own drag state
    fireEvent.drop(zone, dragged([picture()]));
    // The zone reads the files, queues them and then drops its drag state: by then a second
    // copy queued by the screen would be listed too.
    await waitFor(() => expect(zone).not.toHaveClass('border-brand'));
    expect(queued(dialog)).toEqual(['image.png']);
  });

  it('takes no drop while another dialog is open', async () => {
    const { user } = await renderScreen();
    await user.click(screen.getByRole('button', { name: 'New text' }));
    const dialog = await screen.findByRole('dialog', { name: 'New text' });

    fireEvent.dragEnter(dialog, dragged([]));
    expect(overlayText()).toBeNull();
    const over = dragged([]);
    // Still held, so the browser does not open the file in place of the app; but refused.
    expect(fireEvent.dragOver(dialog, over)).toBe(false);
    expect(over.dataTransfer.dropEffect).toBe('none');
    fireEvent.drop(dialog, dragged([picture()]));
    expect(screen.queryByRole('dialog', { name: 'Upload Files' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'New text' })).toBeInTheDocument();
  });
});
