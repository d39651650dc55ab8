// New text on the Uploads screen: its defaults, what its type names, saving it through the
// upload route with the link choices, the link it copies, a refusal, and where focus goes.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUpload, makeUploadResponse } from '../test/fixtures.ts';
import { mockXhr, type FakeXhrRequest } from '../test/xhr-mock.ts';
import { PUBLIC_URL, renderUploads } from '../test/uploads.ts';

afterEach(() => {
  vi.useRealTimers();
});

const fields = (request: FakeXhrRequest) => [...request.body.keys()];
const sentFile = (request: FakeXhrRequest) => request.body.get('file') as File;

/** Answers each upload as the server would: a public link named after the file. */
function answerByName(isPublic = true) {
  return mockXhr((request) => {
    const name = sentFile(request).name;
    const upload = makeUpload({
      id: 'u1',
      originalFilename: name,
      isPublic,
      url: `${PUBLIC_URL}/${name}`,
    });
    request.respond(201, makeUploadResponse(upload));
  });
}

async function openNewText(answers = {}) {
  const app = renderUploads(answers);
  await screen.findByText('No uploads yet');
  const opener = screen.getByRole('button', { name: 'New text' });
  await app.user.click(opener);
  const dialog = await screen.findByRole('dialog', { name: 'New text' });
  const name = within(dialog).getByRole('textbox', { name: 'File name' });
  const type = within(dialog).getByRole('combobox', { name: 'Type' });
  const text = within(dialog).getByRole('textbox', { name: 'Text' });
  const save = within(dialog).getByRole('button', { name: 'Save' });
  return { ...app, opener, dialog, name, type, text, save };
}

describe('Uploads page: New text', () => {
  it("starts with today's name, plain text, the link preferences and the cursor in the text", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 4, 4, 23, 30)); // the viewer's 4 May, whatever UTC says
    const { user, opener, dialog, name, type, text } = await openNewText();

    expect(name).toHaveValue('paste-2026-05-04.txt');
    expect(type).toHaveValue('plain');
    expect(
      within(type)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([
      'Plain text (.txt)',
      'Markdown (.md)',
      'Python (.py)',
      'TypeScript (.ts)',
      'JavaScript (.js)',
      'JSON (.json)',
      'Shell (.sh)',
      'YAML (.yaml)',
      'HTML (.html)',
      'CSS (.css)',
      'SQL (.sql)',
      'Go (.go)',
      'Rust (.rs)',
    ]);
    expect(text).toHaveValue('');
    expect(text).toHaveFocus();
    await waitFor(() =>
      expect(within(dialog).getByRole('radio', { name: 'Public' })).toBeChecked(),
    );
    expect(within(dialog).getByRole('button', { name: /^Link options/ })).toHaveTextContent(
      'Never expires · No view limit · No password',
    );

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(opener).toHaveFocus();
  });

  it('names the extension and type from the type chosen, and the type from a typed name', async () => {
    const { requests } = answerByName();
    const { user, name, type, text, save } = await openNewText();

    await user.selectOptions(type, 'Python (.py)');
    expect((name as HTMLInputElement).value).toMatch(/^paste-\d{4}-\d\d-\d\d\.py$/);
    await user.selectOptions(type, 'Markdown (.md)');
    expect((name as HTMLInputElement).value).toMatch(/^paste-\d{4}-\d\d-\d\d\.md$/);

    await user.clear(name);
    await user.type(name, 'deploy.sh');
    expect(type).toHaveValue('shell');
    await user.type(text, 'echo hi');
    await user.click(save);

    await waitFor(() => expect(requests).toHaveLength(1));
    expect(sentFile(requests[0]!).name).toBe('deploy.sh');
    expect(sentFile(requests[0]!).type).toBe('application/x-sh');
    expect(await sentFile(requests[0]!).text()).toBe('echo hi');
  });

  it('gives a name without an extension the type’s own', async () => {
    const { requests } = answerByName();
    const { user, name, type, text, save } = await openNewText();
    await user.selectOptions(type, 'Go (.go)');
    await user.clear(name);
    await user.type(name, 'main');
    await user.type(text, 'package main');
    await user.click(save);
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(sentFile(requests[0]!).name).toBe('main.go');
    expect(sentFile(requests[0]!).type).toBe('text/x-go');
  });

  it('saves through the upload route with the link choices, copies the link and gives focus back', async () => {
    const { requests } = answerByName();
    const { user, opener, dialog, text, save } = await openNewText();
    await user.type(text, 'first line{Enter}second line');
    await user.click(within(dialog).getByRole('button', { name: /^Link options/ }));
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Expires' }), '1d');
    await user.click(save);

    expect(await screen.findByText('Text uploaded successfully')).toBeInTheDocument();
    expect(screen.getByText('Link copied to clipboard')).toBeInTheDocument();
    const [request] = requests;
    expect(request!.path).toBe('/api/upload');
    expect(fields(request!)).toEqual(['isPublic', 'expires', 'maxViews', 'file']);
    expect(request!.body.get('isPublic')).toBe('true');
    expect(request!.body.get('expires')).toBe('1d');
    expect(await sentFile(request!).text()).toBe('first line\nsecond line');
    expect(sentFile(request!).type).toBe('text/plain');
    const link = `${PUBLIC_URL}/${sentFile(request!).name}`;
    expect(await navigator.clipboard.readText()).toBe(link);

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(opener).toHaveFocus();
  });

  it("copies a private text's signed link", async () => {
    answerByName(false);
    const signed = {
      url: `${PUBLIC_URL}/notes.txt?expires=1765000000&signature=abc`,
      previewUrl: `${PUBLIC_URL}/v/notes.txt?expires=1765000000&signature=abc`,
      thumbnailUrl: null,
      expiresAt: '2026-12-04T17:01:00.000Z',
    };
    const { user, dialog, text, save, queries } = await openNewText({ uploadAccessUrl: signed });
    await user.click(within(dialog).getByRole('radio', { name: 'Private' }));
    await user.type(text, 'secret');
    await user.click(save);

    expect(await screen.findByText('Link copied to clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(signed.url);
    expect(queries('uploadAccessUrl')).toEqual([{ ttl: '604800' }]);
  });

  it('cannot be dismissed while saving; a refusal keeps the text and says why', async () => {
    const { requests } = mockXhr();
    const { user, dialog, name, text, save } = await openNewText();
    await user.type(text, 'a long log');
    await user.click(save);

    await waitFor(() => expect(requests).toHaveLength(1));
    expect(within(dialog).getByRole('button', { name: 'Saving...' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(within(dialog).queryByRole('button', { name: 'Close' })).toBeNull();
    expect(dialog).toHaveAttribute('aria-busy', 'true');
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'New text' })).toBeInTheDocument();

    requests[0]!.respond(413, { error: 'payload_too_large', message: 'Storage quota exceeded' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Storage quota exceeded');
    // Once, in the dialog: no toast beside it; and focus back in the text to fix or retry.
    expect(screen.getAllByText('Storage quota exceeded')).toHaveLength(1);
    expect(text).toHaveFocus();
    expect(text).toHaveValue('a long log');
    expect((name as HTMLInputElement).value).toMatch(/\.txt$/);
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeEnabled();
    expect(screen.queryByText('Text uploaded successfully')).toBeNull();
  });

  it('asks for a name and for text before sending anything', async () => {
    const { requests } = answerByName();
    const { user, dialog, name, text, save } = await openNewText();
    await user.clear(name);
    await user.click(save);
    expect(within(dialog).getByText('Enter a file name')).toBeInTheDocument();
    expect(within(dialog).getByText('Type or paste the text to save')).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(text).toHaveAttribute('aria-invalid', 'true');
    expect(requests).toHaveLength(0);

    await user.type(name, 'x.txt');
    expect(within(dialog).queryByText('Enter a file name')).toBeNull();
    await user.type(text, 'x');
    expect(within(dialog).queryByText('Type or paste the text to save')).toBeNull();
  });
});
