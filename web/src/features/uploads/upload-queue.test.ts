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

  it('keeps each file as the browser gave it: the server resolves a blank type', () => {
    const blank = new File(['x'], 'clip.mkv');
    const [item] = toQueueItems([blank]);
    expect(item!.file).toBe(blank);
    expect(item!.file.type).toBe('');
  });

  it('starts every file pending at 0, with distinct ids', () => {
    const items = toQueueItems([new File(['x'], 'a.txt'), new File(['y'], 'b.txt')]);
    expect(items.map(({ status, progress }) => ({ status, progress }))).toEqual([
      { status: 'pending', progress: 0 },
      { status: 'pending', progress: 0 },
    ]);
    expect(new Set(items.map((item) => item.id)).size).toBe(2);
  });
});
