import { describe, expect, it } from 'vitest';
import { guessMimeType, withGuessedType } from './mime.ts';

describe('guessMimeType', () => {
  it('maps known extensions case-insensitively', () => {
    expect(guessMimeType('photo.JPG')).toBe('image/jpeg');
    expect(guessMimeType('notes.md')).toBe('text/markdown');
    expect(guessMimeType('backup.tar.gz')).toBe('application/gzip');
    expect(guessMimeType('clip.mkv')).toBe('video/x-matroska');
  });

  it('answers empty for unknown, missing and dot-file extensions', () => {
    expect(guessMimeType('data.unknownext')).toBe('');
    expect(guessMimeType('Makefile')).toBe('');
    expect(guessMimeType('.bashrc')).toBe('');
    expect(guessMimeType('trailing.')).toBe('');
  });
});

describe('withGuessedType', () => {
  it('fills a blank type from the extension and keeps name, bytes and date', async () => {
    const original = new File(['hello'], 'readme.txt', { type: '', lastModified: 42 });
    const guessed = withGuessedType(original);
    expect(guessed.type).toBe('text/plain');
    expect(guessed.name).toBe('readme.txt');
    expect(guessed.lastModified).toBe(42);
    expect(await guessed.text()).toBe('hello');
  });

  it('makes a type only shadowed on the object (as file-selector does) the one FormData sends', () => {
    const shadowed = new File(['x'], 'notes.md');
    Object.defineProperty(shadowed, 'type', { value: 'text/markdown' });
    const form = new FormData();
    form.append('file', shadowed, shadowed.name);
    expect((form.get('file') as File).type).toBe(''); // what the server would have received

    form.set('file', withGuessedType(shadowed), shadowed.name);
    expect((form.get('file') as File).type).toBe('text/markdown');
  });

  it('leaves a file alone when it has a type or the extension is unknown', () => {
    const typed = new File(['x'], 'a.txt', { type: 'application/x-custom' });
    const unknown = new File(['x'], 'a.qqq');
    expect(withGuessedType(typed)).toBe(typed);
    expect(withGuessedType(unknown)).toBe(unknown);
  });
});
