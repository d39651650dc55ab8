import { afterEach, describe, expect, it, vi } from 'vitest';
import { beginCopy, copyTextWhenReady } from './use-copy.ts';

/** The browser's clipboard, as far as these functions use it. */
function stubClipboard(clipboard: Partial<Clipboard>) {
  Object.defineProperty(navigator, 'clipboard', { value: clipboard, configurable: true });
}

class FakeClipboardItem {
  constructor(readonly items: Record<string, Promise<Blob>>) {}
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
});

describe('copyTextWhenReady', () => {
  it('begins the write at once with a ClipboardItem, its text to follow', async () => {
    vi.stubGlobal('ClipboardItem', FakeClipboardItem);
    let written: FakeClipboardItem | undefined;
    const write = vi.fn(async ([item]: FakeClipboardItem[]) => {
      written = item;
    });
    const writeText = vi.fn();
    stubClipboard({ write, writeText } as unknown as Clipboard);

    let give!: (text: string) => void;
    const copied = copyTextWhenReady(new Promise<string>((resolve) => (give = resolve)));
    expect(write).toHaveBeenCalledTimes(1); // before the text is known
    give('https://share.example.com/a?signature=x');

    expect(await copied).toBe(true);
    expect(await written!.items['text/plain']!.then((blob) => blob.text())).toBe(
      'https://share.example.com/a?signature=x',
    );
    expect(writeText).not.toHaveBeenCalled();
  });

  it('writes the text once known where the ClipboardItem is refused, or there is none', async () => {
    vi.stubGlobal('ClipboardItem', FakeClipboardItem);
    const writeText = vi.fn(async () => {});
    stubClipboard({
      write: vi.fn(async () => Promise.reject(new DOMException('Not focused', 'NotAllowedError'))),
      writeText,
    } as unknown as Clipboard);
    expect(await copyTextWhenReady(Promise.resolve('a'))).toBe(true);
    expect(writeText).toHaveBeenCalledWith('a');

    vi.unstubAllGlobals();
    expect(await copyTextWhenReady(Promise.resolve('b'))).toBe(true);
    expect(writeText).toHaveBeenLastCalledWith('b');
  });

  it("resolves to false when the clipboard refuses, and rejects with the text's failure", async () => {
    stubClipboard({ writeText: vi.fn(async () => Promise.reject(new Error('denied'))) });
    expect(await copyTextWhenReady(Promise.resolve('a'))).toBe(false);
    const failure = new Error('sign failed');
    await expect(copyTextWhenReady(Promise.reject(failure))).rejects.toBe(failure);
  });
});

describe('beginCopy', () => {
  it('copies the text given later, or nothing when given null', async () => {
    const writeText = vi.fn(async () => {});
    stubClipboard({ writeText });
    expect(await beginCopy()('one\ntwo')).toBe(true);
    expect(writeText).toHaveBeenCalledWith('one\ntwo');
    expect(await beginCopy()(null)).toBe(false);
    expect(writeText).toHaveBeenCalledTimes(1);
  });
});
