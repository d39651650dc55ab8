// The upload dialog's link choices (privacy, expiry, view limit, password) and the links a
// finished batch leaves: on the clipboard, and on each row.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  makePreferences,
  makeServerConfig,
  makeUpload,
  makeUploadResponse,
} from '../../../test/fixtures.ts';
import { formatDate } from '../../../lib/format.ts';
import { noContent, refuse, reply } from '../../../test/mock-api.ts';
import { findRow, renderDialog, row } from '../../../test/upload-dialog.tsx';
import { mockXhr, type FakeXhrRequest } from '../../../test/xhr-mock.ts';

const created = makeUploadResponse;
const fields = (request: FakeXhrRequest) => [...request.body.entries()].map(([key]) => key);

/** Answers each simple upload with a link named after the file. */
function answerByName() {
  return mockXhr((request) => {
    const name = (request.body.get('file') as File).name;
    request.respond(
      201,
      created(makeUpload({ originalFilename: name, url: `https://share.example.com/${name}` })),
    );
  });
}

const withPreferences = (overrides = {}) => ({
  getPreferences: { preferences: makePreferences(overrides) },
});

describe('UploadDialog: link choices', () => {
  it("starts from the preferences and sends them with every file, before the file's bytes", async () => {
    const { requests } = answerByName();
    const { user, dialog, input } = renderDialog({
      answers: withPreferences({
        defaultUploadPrivacy: false,
        defaultExpiry: '12h',
        defaultMaxViews: 3,
      }),
    });
    await waitFor(() =>
      expect(within(dialog).getByRole('radio', { name: 'Private' })).toBeChecked(),
    );
    const options = within(dialog).getByRole('button', { name: /^Link options/ });
    expect(options).toHaveTextContent('Expires after 12 hours · 3 views · No password');
    expect(options).toHaveAttribute('aria-expanded', 'false');

    await user.upload(input, [new File(['a'], 'a.txt'), new File(['b'], 'b.txt')]);
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 2 file(s)' }));
    await waitFor(() => expect(requests).toHaveLength(2));

    for (const request of requests) {
      expect(fields(request)).toEqual(['isPublic', 'expires', 'maxViews', 'file']);
      expect(request.body.get('isPublic')).toBe('false');
      expect(request.body.get('expires')).toBe('12h');
      expect(request.body.get('maxViews')).toBe('3');
    }
  });

  it('sends what is chosen: public, an expiry, no view limit and a password', async () => {
    const { requests } = answerByName();
    const { user, dialog, input } = renderDialog({
      answers: withPreferences({ defaultUploadPrivacy: false, defaultMaxViews: 10 }),
    });
    await user.click(await within(dialog).findByRole('radio', { name: 'Public' }));
    await user.click(within(dialog).getByRole('button', { name: /^Link options/ }));
    const expires = within(dialog).getByRole('combobox', { name: 'Expires' });
    expect(
      within(expires)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Never (default)', '1 hour', '1 day', '7 days', '30 days']);
    await user.selectOptions(expires, '7 days');
    const limit = within(dialog).getByRole('textbox', { name: 'View limit' });
    expect(limit).toHaveValue('10');
    await user.clear(limit);
    await user.type(within(dialog).getByLabelText('Password'), 's3cret pass');
    expect(within(dialog).getByRole('button', { name: /^Link options/ })).toHaveTextContent(
      'Expires after 7 days · No view limit · Password',
    );

    await user.upload(input, [new File(['a'], 'a.txt')]);
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 1 file(s)' }));
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(Object.fromEntries([...requests[0]!.body.entries()].slice(0, 4))).toEqual({
      isPublic: 'true',
      expires: '7d',
      maxViews: 'none',
      password: 's3cret pass',
    });
  });

  it('puts the choices in the chunked init JSON, the view limit as a number or null', async () => {
    mockXhr((request) => request.respond(204));
    const config = makeServerConfig({ maxSimpleUploadBytes: 2000, chunkSize: 1000 });
    const { user, dialog, input, bodies } = renderDialog({
      config,
      answers: {
        ...withPreferences({ defaultExpiry: '1d', defaultMaxViews: 5 }),
        chunkedInit: reply(201, { uploadId: 'up1', chunkSize: 1000, expiresAt: '2030-01-01' }),
        chunkedComplete: reply(201, created(makeUpload({ originalFilename: 'log.txt' }))),
      },
    });
    await user.click(await within(dialog).findByRole('radio', { name: 'Private' }));
    await user.click(within(dialog).getByRole('button', { name: /^Link options/ }));
    await user.type(within(dialog).getByLabelText('Password'), 'pw');
    await user.upload(input, [new File(['x'.repeat(2500)], 'log.txt', { type: 'text/plain' })]);
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 1 file(s)' }));

    expect(await screen.findByText('1 file(s) uploaded successfully')).toBeInTheDocument();
    expect(await bodies('chunkedInit')).toEqual([
      {
        filename: 'log.txt',
        mimeType: 'text/plain',
        totalSize: 2500,
        totalChunks: 3,
        isPublic: false,
        expires: '1d',
        maxViews: 5,
        password: 'pw',
      },
    ]);
  });

  it('starts a chunked file again, not resumed, when it is retried with other choices', async () => {
    const config = makeServerConfig({ maxSimpleUploadBytes: 2000, chunkSize: 1000 });
    let failChunk1 = true;
    const sessions = ['up1', 'up2'];
    mockXhr((request) => {
      if (request.body.get('chunkIndex') === '1' && failChunk1) return request.fail();
      request.respond(204);
    });
    const { user, dialog, input, bodies, sent } = renderDialog({
      config,
      sleep: async () => {},
      answers: {
        ...withPreferences(),
        chunkedInit: () =>
          reply(201, { uploadId: sessions.shift()!, chunkSize: 1000, expiresAt: '2030-01-01' }),
        chunkedStatus: refuse(404, 'Upload session not found'),
        chunkedAbort: noContent(),
        chunkedComplete: reply(201, created(makeUpload({ originalFilename: 'log.txt' }))),
      },
    });
    await user.upload(input, [new File(['x'.repeat(2500)], 'log.txt', { type: 'text/plain' })]);
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 1 file(s)' }));
    expect(await screen.findByText('1 file(s) failed to upload')).toBeInTheDocument();

    failChunk1 = false;
    await user.click(within(dialog).getByRole('radio', { name: 'Private' }));
    await user.click(within(row('log.txt')).getByRole('button', { name: 'Retry log.txt' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 1 file(s)' }));
    expect(await screen.findByText('1 file(s) uploaded successfully')).toBeInTheDocument();

    // The first session, opened as public, is given up; the second carries the new choice.
    expect((await bodies('chunkedInit')).map((body) => body.isPublic)).toEqual([true, false]);
    expect(sent('chunkedAbort').map((r) => new URL(r.url).pathname)).toEqual([
      '/api/chunked-upload/up1',
    ]);
    expect((await bodies('chunkedComplete')).map((body) => body.uploadId)).toEqual(['up2']);
  });

  it('will not upload with a view limit the server would refuse', async () => {
    const { requests } = answerByName();
    const { user, dialog, input } = renderDialog({ answers: withPreferences() });
    await user.upload(input, [new File(['a'], 'a.txt')]);
    await user.click(await within(dialog).findByRole('button', { name: /^Link options/ }));
    const limit = within(dialog).getByRole('textbox', { name: 'View limit' });
    await user.type(limit, '0');
    expect(limit).toHaveAttribute('aria-invalid', 'true');
    expect(limit).toHaveAccessibleDescription(/A whole number from 1 to 1,000,000/);
    expect(within(dialog).getByRole('button', { name: 'Upload 1 file(s)' })).toBeDisabled();
    // Half-typed is refused as typed, never read as "no limit".
    for (const typed of ['5e', '1.', '-2']) {
      await user.clear(limit);
      await user.type(limit, typed);
      expect(limit).toHaveValue(typed);
      expect(limit, typed).toHaveAttribute('aria-invalid', 'true');
      expect(within(dialog).getByRole('button', { name: 'Upload 1 file(s)' })).toBeDisabled();
    }

    await user.clear(limit);
    await user.type(limit, '1');
    await user.click(within(dialog).getByRole('button', { name: 'Upload 1 file(s)' }));
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]!.body.get('maxViews')).toBe('1');
  });

  it('will not upload with a password that begins or ends with a space', async () => {
    const { requests } = answerByName();
    const { user, dialog, input } = renderDialog({ answers: withPreferences() });
    await user.upload(input, [new File(['a'], 'a.txt')]);
    await user.click(await within(dialog).findByRole('button', { name: /^Link options/ }));
    const password = within(dialog).getByLabelText('Password');
    await user.type(password, 'secret ');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription(/Must not begin or end with a space/);
    expect(within(dialog).getByRole('button', { name: /^Link options/ })).toHaveTextContent(
      'Password not valid',
    );
    expect(within(dialog).getByRole('button', { name: 'Upload 1 file(s)' })).toBeDisabled();

    await user.type(password, '{Backspace}');
    await user.click(within(dialog).getByRole('button', { name: 'Upload 1 file(s)' }));
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]!.body.get('password')).toBe('secret');
  });

  it('leaves the choices to the server while the preferences are unknown', async () => {
    const { requests } = answerByName();
    const { user, dialog, input } = renderDialog(); // GET /api/preferences answers 404
    await user.upload(input, [new File(['a'], 'a.txt')]);
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 1 file(s)' }));
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(fields(requests[0]!)).toEqual(['file']);
  });
});

describe('UploadDialog: the links of a batch', () => {
  it('copies every link, one a line in queue order, and shows each on its row', async () => {
    answerByName();
    const { user, dialog, input } = renderDialog({ answers: withPreferences() });
    await user.upload(input, [new File(['a'], 'b.txt'), new File(['b'], 'a.txt')]);
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 2 file(s)' }));

    expect(await screen.findByText('2 file(s) uploaded successfully')).toBeInTheDocument();
    expect(screen.getByText('Links copied to clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(
      'https://share.example.com/b.txt\nhttps://share.example.com/a.txt',
    );
    await waitFor(() => expect(screen.getByText('dialog closed')).toBeInTheDocument(), {
      timeout: 2500,
    });
  });

  it('says "Link copied" for one file, and nothing about copying when the clipboard refuses', async () => {
    answerByName();
    const { user, dialog, input } = renderDialog({ answers: withPreferences() });
    await user.upload(input, [new File(['a'], 'one.txt')]);
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 1 file(s)' }));
    expect(await screen.findByText('Link copied to clipboard')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('dialog closed')).toBeInTheDocument(), {
      timeout: 2500,
    });

    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    await user.click(screen.getByRole('button', { name: 'reopen' }));
    const reopened = screen.getByRole('dialog', { name: 'Upload Files' });
    await user.upload(within(reopened).getByLabelText('Choose files to upload'), [
      new File(['b'], 'two.txt'),
    ]);
    await user.click(await within(reopened).findByRole('button', { name: 'Upload 1 file(s)' }));
    await waitFor(() =>
      expect(screen.getAllByText('1 file(s) uploaded successfully')).toHaveLength(2),
    );
    expect(screen.getAllByText('Link copied to clipboard')).toHaveLength(1);
  });

  it('copies nothing after a batch in which a file failed', async () => {
    mockXhr((request) => {
      const name = (request.body.get('file') as File).name;
      if (name === 'bad.txt') request.respond(400, { error: 'validation_error', message: 'No' });
      else {
        const upload = makeUpload({ originalFilename: name, url: 'http://localhost/code' });
        request.respond(201, created(upload));
      }
    });
    const { user, dialog, input } = renderDialog({ answers: withPreferences() });
    await navigator.clipboard.writeText('untouched');
    await user.upload(input, [new File(['a'], 'good.txt'), new File(['b'], 'bad.txt')]);
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 2 file(s)' }));

    expect(await screen.findByText('1 file(s) failed to upload')).toBeInTheDocument();
    expect(screen.getByText('1 file(s) uploaded successfully')).toBeInTheDocument();
    expect(screen.queryByText(/copied to clipboard/)).toBeNull();
    expect(await navigator.clipboard.readText()).toBe('untouched');

    // The finished row shows its link, as text (opening it would spend a view), with a copy button.
    const good = await findRow('good.txt');
    expect(within(good).getByText('http://localhost/code')).toBeInTheDocument();
    expect(within(good).queryByRole('link')).toBeNull();
    expect(
      within(await findRow('bad.txt')).queryByRole('button', { name: /Copy link/ }),
    ).toBeNull();
    await user.click(within(good).getByRole('button', { name: 'Copy link of good.txt' }));
    expect(await screen.findByText('URL copied to clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe('http://localhost/code');
  });

  it("copies a private file's signed link, valid 7 days, which its row shows with its end", async () => {
    mockXhr((request) => {
      const name = (request.body.get('file') as File).name;
      const upload = makeUpload({
        id: name === 'secret.txt' ? 'sec1' : 'pub1',
        originalFilename: name,
        url: `https://share.example.com/${name}`,
        isPublic: name !== 'secret.txt',
      });
      request.respond(201, created(upload));
    });
    const signed = {
      url: 'https://share.example.com/secret.txt?expires=1765000000&signature=abc',
      previewUrl: 'https://share.example.com/v/secret.txt?expires=1765000000&signature=abc',
      thumbnailUrl: null,
      expiresAt: '2026-12-04T17:01:00.000Z',
    };
    const { user, dialog, input, sent, queries } = renderDialog({
      answers: { ...withPreferences(), uploadAccessUrl: signed },
    });
    await user.upload(input, [new File(['a'], 'public.txt'), new File(['b'], 'secret.txt')]);
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 2 file(s)' }));

    expect(await screen.findByText('Links copied to clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(
      `https://share.example.com/public.txt\n${signed.url}`,
    );
    // Only the private file is signed, for the longest time the server allows.
    expect(sent('uploadAccessUrl').map((r) => new URL(r.url).pathname)).toEqual([
      '/api/uploads/sec1/access-url',
    ]);
    expect(queries('uploadAccessUrl')).toEqual([{ ttl: '604800' }]);
    const secret = await findRow('secret.txt');
    expect(within(secret).getByText(signed.url)).toBeInTheDocument();
    expect(
      within(secret).getByText(`Private link, works until ${formatDate(signed.expiresAt)}`),
    ).toBeInTheDocument();
    expect(within(row('public.txt')).queryByText(/Private link/)).toBeNull();
  });

  it('shows and copies no link for a private file whose link cannot be signed', async () => {
    mockXhr((request) => {
      const upload = makeUpload({
        originalFilename: 'secret.txt',
        url: 'https://share.example.com/secret',
        isPublic: false,
      });
      request.respond(201, created(upload));
    });
    const { user, dialog, input } = renderDialog({
      answers: { ...withPreferences(), uploadAccessUrl: refuse(404, 'Upload not found') },
    });
    await navigator.clipboard.writeText('untouched');
    await user.upload(input, [new File(['a'], 'secret.txt')]);
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 1 file(s)' }));

    expect(await screen.findByText('1 file(s) uploaded successfully')).toBeInTheDocument();
    expect(screen.queryByText(/copied to clipboard/)).toBeNull();
    expect(await navigator.clipboard.readText()).toBe('untouched');
    const secret = await findRow('secret.txt');
    expect(within(secret).queryByText('https://share.example.com/secret')).toBeNull();
    expect(within(secret).queryByRole('button', { name: /Copy link/ })).toBeNull();
  });
});
