// The links the web app hands out follow the user's Link style: Copy URL on a card, the
// clipboard and each row after an upload batch, and New text's copied link; public ones as they
// are, private ones signed (the page's signed link when the style is the preview page).
import type { LinkStyle, Upload } from '@upshot/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makePreferences, makeUpload, makeUploadResponse } from '../test/fixtures.ts';
import { findRow, renderDialog } from '../test/upload-dialog.tsx';
import { PUBLIC_URL, renderUploads, uploadsPage } from '../test/uploads.ts';
import { mockXhr } from '../test/xhr-mock.ts';

const preferences = (linkStyle: LinkStyle) => ({
  getPreferences: { preferences: makePreferences({ linkStyle }) },
});

/** An upload with both links, on PUBLIC_URL, named after its file. */
const upload = (name: string, isPublic: boolean) =>
  makeUpload({
    id: `id-${name}`,
    originalFilename: name,
    isPublic,
    url: `${PUBLIC_URL}/${name}`,
    previewUrl: `${PUBLIC_URL}/v/${name}`,
  });

/** The access-url answer for any upload: both links signed. */
const signedAnswer = ({ params }: { params: Record<string, string> }) => {
  const name = (params.id ?? '').replace(/^id-/, '');
  const query = '?expires=1765000000&signature=abc';
  return {
    url: `${PUBLIC_URL}/${name}${query}`,
    previewUrl: `${PUBLIC_URL}/v/${name}${query}`,
    thumbnailUrl: null,
    expiresAt: '2026-12-04T17:01:00.000Z',
  };
};
const SIGNED = '?expires=1765000000&signature=abc';

/** Answers each simple upload with `upload(name)`, private when the name says so. */
const answerUploads = () =>
  mockXhr((request) => {
    const name = (request.body.get('file') as File).name;
    request.respond(201, makeUploadResponse(upload(name, !name.startsWith('secret'))));
  });

const expected: Record<LinkStyle, (name: string, signed?: boolean) => string> = {
  raw: (name, signed) => `${PUBLIC_URL}/${name}${signed ? SIGNED : ''}`,
  preview: (name, signed) => `${PUBLIC_URL}/v/${name}${signed ? SIGNED : ''}`,
};

describe.each(['raw', 'preview'] as const)('with Link style %s', (style) => {
  const link = expected[style];

  it('Copy URL copies that link of a public card, and the signed one of a private card', async () => {
    const cards: Upload[] = [upload('open.png', true), upload('secret.pdf', false)];
    const { user, sent } = renderUploads({
      ...preferences(style),
      listUploads: uploadsPage(cards),
      uploadAccessUrl: signedAnswer,
    });
    const open = await screen.findByRole('article', { name: 'open.png' });
    await user.click(within(open).getByRole('button', { name: 'Copy URL of open.png' }));
    expect(await screen.findByText('URL copied to clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(link('open.png'));
    expect(sent('uploadAccessUrl')).toHaveLength(0);

    const secret = screen.getByRole('article', { name: 'secret.pdf' });
    await user.click(within(secret).getByRole('button', { name: 'Copy URL of secret.pdf' }));
    await waitFor(() => expect(screen.getAllByText('URL copied to clipboard')).toHaveLength(2));
    expect(await navigator.clipboard.readText()).toBe(link('secret.pdf', true));
    // The file's name on the card still opens the file itself.
    expect(within(open).getByRole('link', { name: 'Open open.png' })).toHaveAttribute(
      'href',
      `${PUBLIC_URL}/open.png`,
    );
  });

  it('an upload batch puts those links on the clipboard and on each row', async () => {
    answerUploads();
    const { user, dialog, input } = renderDialog({
      answers: { ...preferences(style), uploadAccessUrl: signedAnswer },
    });
    await user.upload(input, [new File(['a'], 'open.txt'), new File(['b'], 'secret.txt')]);
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 2 file(s)' }));

    expect(await screen.findByText('Links copied to clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(
      `${link('open.txt')}\n${link('secret.txt', true)}`,
    );
    expect(within(await findRow('open.txt')).getByText(link('open.txt'))).toBeInTheDocument();
    expect(within(await findRow('secret.txt')).getByText(link('secret.txt', true))).toBeVisible();
  });

  it("New text copies its text's link, public or private", async () => {
    answerUploads();
    const { user } = renderUploads({ ...preferences(style), uploadAccessUrl: signedAnswer });
    await screen.findByText('No uploads yet');
    for (const [name, privacy] of [
      ['notes.txt', 'Public'],
      ['secret-notes.txt', 'Private'],
    ] as const) {
      await user.click(screen.getByRole('button', { name: 'New text' }));
      const dialog = await screen.findByRole('dialog', { name: 'New text' });
      const fileName = within(dialog).getByRole('textbox', { name: 'File name' });
      await user.clear(fileName);
      await user.type(fileName, name);
      await user.click(within(dialog).getByRole('radio', { name: privacy }));
      await user.type(within(dialog).getByRole('textbox', { name: 'Text' }), 'words');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      await waitFor(async () =>
        expect(await navigator.clipboard.readText()).toBe(link(name, name.startsWith('secret'))),
      );
    }
  });
});
