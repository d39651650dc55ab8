import { CHUNK_SIZE } from '@upshot/contract/constants';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeServerConfig, makeUpload, makeUploadResponse } from '../../../test/fixtures.ts';
import { reply } from '../../../test/mock-api.ts';
import { findRow, renderDialog, row, sizedFile } from '../../../test/upload-dialog.tsx';
import { AUTO_CLOSE_DELAY_MS } from './upload-dialog.tsx';
import { mockXhr, type FakeXhrRequest } from '../../../test/xhr-mock.ts';

const created = makeUploadResponse;

describe('UploadDialog', () => {
  it('lists dropped files without system clutter, with size, Chunked marker and removal', async () => {
    mockXhr();
    const { user, dialog, input } = renderDialog();
    expect(within(dialog).getByText('Drop files here or click to browse')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Upload 0 file(s)' })).toBeDisabled();

    await user.upload(input, [
      new File(['hello'], 'notes.md'),
      new File(['x'], '.DS_Store'),
      new File(['x'], 'Thumbs.db'),
      sizedFile('movie.mkv', 3 * CHUNK_SIZE, 'video/x-matroska'),
      new File(['abc'], 'extra.txt', { type: 'text/plain' }),
    ]);

    const list = await within(dialog).findByRole('list', { name: 'Files to upload' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('aria-label')),
    ).toEqual(['notes.md', 'movie.mkv', 'extra.txt']);
    expect(within(row('notes.md')).getByText('5 Bytes')).toBeInTheDocument();
    expect(within(row('notes.md')).getByRole('img', { name: 'Pending' })).toBeInTheDocument();
    expect(within(row('notes.md')).queryByText('Chunked')).not.toBeInTheDocument();
    expect(within(row('movie.mkv')).getByText('150 MB')).toBeInTheDocument();
    expect(within(row('movie.mkv')).getByText('Chunked')).toBeInTheDocument();
    expect(await within(dialog).findByRole('button', { name: 'Upload 3 file(s)' })).toBeEnabled();

    await user.click(within(row('extra.txt')).getByRole('button', { name: 'Remove extra.txt' }));
    expect(screen.queryByRole('listitem', { name: 'extra.txt' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Upload 2 file(s)' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('dialog closed')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'reopen' }));
    expect(screen.queryByRole('list', { name: 'Files to upload' })).not.toBeInTheDocument();
  });

  it('uploads one file after another, cannot close meanwhile, then closes itself after 1 s', async () => {
    const { requests } = mockXhr();
    const { user, dialog, input } = renderDialog();
    await user.upload(input, [
      new File(['first'], 'a.md'),
      new File(['second'], 'b.txt', { type: 'text/plain' }),
    ]);
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 2 file(s)' }));

    await waitFor(() => expect(requests).toHaveLength(1));
    const first = requests[0]!;
    expect((first.body.get('file') as File).name).toBe('a.md');
    expect(within(dialog).getByRole('button', { name: 'Uploading...' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(within(dialog).queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
    expect(within(row('a.md')).getByRole('img', { name: 'Uploading' })).toBeInTheDocument();

    first.progress(50, 100);
    await waitFor(() =>
      expect(within(row('a.md')).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50'),
    );
    first.progress(100, 100);
    await waitFor(() =>
      expect(within(row('a.md')).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '90'),
    );
    await user.keyboard('{Escape}');
    expect(screen.getByText('dialog open')).toBeInTheDocument();
    expect(requests).toHaveLength(1); // the second waits for the first

    first.respond(201, created(makeUpload({ originalFilename: 'a.md' })));
    await waitFor(() => expect(requests).toHaveLength(2));
    expect(within(row('a.md')).getByRole('img', { name: 'Uploaded' })).toBeInTheDocument();
    expect(within(row('a.md')).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    requests[1]!.respond(201, created(makeUpload({ originalFilename: 'b.txt' })));

    expect(await screen.findByText('2 file(s) uploaded successfully')).toBeInTheDocument();
    expect(screen.getByText('dialog open')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('dialog closed')).toBeInTheDocument(), {
      timeout: 2500,
    });
    await user.click(screen.getByRole('button', { name: 'reopen' }));
    expect(screen.queryByRole('list', { name: 'Files to upload' })).not.toBeInTheDocument();
  });

  it('stays open when files join while a finished batch waits to close', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockXhr((request) =>
      request.respond(201, created(makeUpload({ originalFilename: 'first.txt' }))),
    );
    const { user, dialog, input } = renderDialog();
    await user.upload(input, [new File(['a'], 'first.txt', { type: 'text/plain' })]);
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 1 file(s)' }));
    expect(await screen.findByText('1 file(s) uploaded successfully')).toBeInTheDocument();

    // Within its closing second, another file arrives (dropped or pasted on the screen).
    await user.upload(input, [new File(['b'], 'second.txt', { type: 'text/plain' })]);
    await findRow('second.txt');
    await act(async () => {
      vi.advanceTimersByTime(AUTO_CLOSE_DELAY_MS + 200);
    });
    expect(screen.getByText('dialog open')).toBeInTheDocument();
    expect(within(row('second.txt')).getByRole('img', { name: 'Pending' })).toBeInTheDocument();
    vi.useRealTimers();
  });

  it("shows a failed file's reason on its row, toasts it, stays open, and can retry it", async () => {
    let attempts = 0;
    mockXhr((request: FakeXhrRequest) => {
      const name = (request.body.get('file') as File).name;
      if (name === 'big.iso' && attempts++ === 0) {
        request.respond(413, { error: 'payload_too_large', message: 'Storage quota exceeded' });
      } else {
        const url = `http://localhost/${name}`;
        request.respond(201, created(makeUpload({ originalFilename: name, url })));
      }
    });
    const { user, dialog, input } = renderDialog();
    await user.upload(input, [
      new File(['x'], 'ok.txt', { type: 'text/plain' }),
      new File(['x'], 'big.iso', { type: 'application/x-iso9660-image' }),
    ]);
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 2 file(s)' }));

    expect(await screen.findByText('1 file(s) failed to upload')).toBeInTheDocument();
    expect(screen.getByText('1 file(s) uploaded successfully')).toBeInTheDocument();
    expect(within(row('big.iso')).getByRole('alert')).toHaveTextContent('Storage quota exceeded');
    expect(within(row('big.iso')).getByRole('img', { name: 'Failed' })).toBeInTheDocument();
    expect(within(row('big.iso')).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
    expect(screen.getAllByText('Storage quota exceeded')).toHaveLength(2); // row and toast
    expect(within(row('big.iso')).queryByRole('button', { name: /Remove/ })).toBeNull();

    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(screen.getByText('dialog open')).toBeInTheDocument();

    await user.click(within(row('big.iso')).getByRole('button', { name: 'Retry big.iso' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 1 file(s)' }));
    await waitFor(() =>
      expect(within(row('big.iso')).getByRole('img', { name: 'Uploaded' })).toBeInTheDocument(),
    );
    await waitFor(() =>
      expect(screen.getAllByText('1 file(s) uploaded successfully')).toHaveLength(2),
    );
    // Every link of the queue is on the clipboard, the earlier batch's too.
    expect(screen.getByText('Links copied to clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(
      'http://localhost/ok.txt\nhttp://localhost/big.iso',
    );
  });

  it('sends a file over 100 MB in chunks and resumes its session when retried', async () => {
    const size = 2 * CHUNK_SIZE + 10;
    const stored = new Set<number>();
    let failChunk1 = true;
    const { requests } = mockXhr((request) => {
      const index = Number(request.body.get('chunkIndex'));
      if (index === 1 && failChunk1) return request.fail();
      stored.add(index);
      request.respond(204);
    });
    const { user, dialog, input, sent } = renderDialog({
      sleep: async () => {},
      answers: {
        chunkedInit: reply(201, {
          uploadId: 'up1',
          chunkSize: CHUNK_SIZE,
          expiresAt: '2030-01-01',
        }),
        chunkedStatus: () => ({
          uploadId: 'up1',
          filename: 'disk.img',
          totalSize: size,
          totalChunks: 3,
          chunkSize: CHUNK_SIZE,
          receivedChunks: [...stored],
          expiresAt: '2030-01-01',
        }),
        chunkedComplete: reply(201, created(makeUpload({ originalFilename: 'disk.img', size }))),
      },
    });
    await user.upload(input, [sizedFile('disk.img', size, 'application/octet-stream')]);
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 1 file(s)' }));

    expect(await screen.findByText('1 file(s) failed to upload')).toBeInTheDocument();
    expect(within(row('disk.img')).getByRole('alert')).toHaveTextContent('Failed to upload chunk');
    expect(screen.getAllByText('Failed to upload chunk')).toHaveLength(2); // row and toast
    expect(requests.map((r) => r.body.get('chunkIndex'))).toEqual(['0', '1', '1', '1', '1']);

    failChunk1 = false;
    await user.click(within(row('disk.img')).getByRole('button', { name: 'Retry disk.img' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 1 file(s)' }));

    expect(await screen.findByText('1 file(s) uploaded successfully')).toBeInTheDocument();
    expect(requests.slice(5).map((r) => r.body.get('chunkIndex'))).toEqual(['1', '2']);
    expect(sent('chunkedInit')).toHaveLength(1);
  });

  it("marks and sends in chunks what is over the server's limit, cut at the size it answers", async () => {
    const config = makeServerConfig({ maxSimpleUploadBytes: 2000, chunkSize: 1000 });
    const { requests } = mockXhr((request) => request.respond(204));
    const { user, dialog, input, sent } = renderDialog({
      config,
      answers: {
        chunkedInit: reply(201, { uploadId: 'up1', chunkSize: 1000, expiresAt: '2030-01-01' }),
        chunkedComplete: reply(201, created(makeUpload({ originalFilename: 'log.txt' }))),
      },
    });
    expect(
      await within(dialog).findByText(/Files over 1\.95 KB are sent in resumable chunks/),
    ).toBeInTheDocument();

    await user.upload(input, [
      new File(['x'.repeat(2500)], 'log.txt', { type: 'text/plain' }),
      new File(['x'.repeat(2000)], 'small.txt', { type: 'text/plain' }),
    ]);
    // The drop zone reads the files before it lists them.
    expect(within(await findRow('log.txt')).getByText('Chunked')).toBeInTheDocument();
    expect(within(row('small.txt')).queryByText('Chunked')).not.toBeInTheDocument();

    await user.click(within(row('small.txt')).getByRole('button', { name: 'Remove small.txt' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 1 file(s)' }));

    expect(await screen.findByText('1 file(s) uploaded successfully')).toBeInTheDocument();
    expect(requests.map((r) => (r.body.get('chunk') as Blob).size)).toEqual([1000, 1000, 500]);
    expect(sent('config')).toHaveLength(1);
  });
});
