import { describe, expect, it } from 'vitest';
import { toQueueItems } from './upload-queue.ts';

describe('toQueueItems', () => {
  it('leaves out .DS_Store and Thumbs.db', () => {
    const items = toQueueItems([
      new File(['x'], '.DS_Store'),
      new File(['x'], 'a.txt', { type: 'text/plain' }),
      new File(['x'], 'Thumbs.db'),
    ]);
    expect(items.map((item) => item.file.name)).toEqual(['a.txt']);
  });

  it('guesses a blank type from the extension and keeps a given one', () => {
    const [guessed, given, unknown] = toQueueItems([
      new File(['x'], 'clip.mkv'),
      new File(['x'], 'data.json', { type: 'application/x-mine' }),
      new File(['x'], 'blob.qqq'),
    ]);
    expect(guessed!.file.type).toBe('video/x-matroska');
    expect(given!.file.type).toBe('application/x-mine');
    expect(unknown!.file.type).toBe('');
  });

  it('starts every file pending at 0, marks files over 100 MB as chunked, with distinct ids', () => {
    const big = new File(['x'], 'big.bin', { type: 'application/octet-stream' });
    Object.defineProperty(big, 'size', { value: 100 * 1024 * 1024 + 1 });
    const items = toQueueItems([new File(['x'], 'small.txt', { type: 'text/plain' }), big]);
    expect(items.map(({ status, progress, chunked }) => ({ status, progress, chunked }))).toEqual([
      { status: 'pending', progress: 0, chunked: false },
      { status: 'pending', progress: 0, chunked: true },
    ]);
    expect(new Set(items.map((item) => item.id)).size).toBe(2);
  });
});
