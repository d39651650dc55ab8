import { describe, expect, it } from 'vitest';
import {
  defaultTextFilename,
  TEXT_TYPES,
  textFile,
  textTypeById,
  textTypeOfName,
  withExtension,
} from './text-types.ts';

describe('New text types', () => {
  it('offers plain text, Markdown and the languages, each with its extension and type', () => {
    expect(TEXT_TYPES.map((type) => [type.label, type.extension, type.mimeType])).toEqual([
      ['Plain text', 'txt', 'text/plain'],
      ['Markdown', 'md', 'text/markdown'],
      ['Python', 'py', 'text/x-python'],
      ['TypeScript', 'ts', 'text/typescript'],
      ['JavaScript', 'js', 'text/javascript'],
      ['JSON', 'json', 'application/json'],
      ['Shell', 'sh', 'application/x-sh'],
      ['YAML', 'yaml', 'application/yaml'],
      ['HTML', 'html', 'text/html'],
      ['CSS', 'css', 'text/css'],
      ['SQL', 'sql', 'application/sql'],
      ['Go', 'go', 'text/x-go'],
      ['Rust', 'rs', 'text/x-rust'],
    ]);
  });

  it("names a new text after the viewer's date, not UTC's", () => {
    // Late on 4 May where the viewer is: in most zones east of UTC it is already the 5th there.
    expect(defaultTextFilename(new Date(2026, 4, 4, 23, 59))).toBe('paste-2026-05-04.txt');
    expect(defaultTextFilename(new Date(2026, 0, 9, 0, 1))).toBe('paste-2026-01-09.txt');
  });

  it("replaces a type's extension, keeps any other, and names an empty name", () => {
    const markdown = textTypeById('markdown');
    expect(withExtension('paste-2026-05-04.txt', markdown)).toBe('paste-2026-05-04.md');
    expect(withExtension('script.py', textTypeById('rust'))).toBe('script.rs');
    expect(withExtension('notes.v2', markdown)).toBe('notes.v2.md');
    expect(withExtension('notes', markdown)).toBe('notes.md');
    expect(withExtension('  ', markdown)).toBe('paste.md');
    expect(withExtension('config.yml', textTypeById('json'))).toBe('config.json');
  });

  it('knows the type a typed name stands for, other spellings included', () => {
    expect(textTypeOfName('build.sh')?.id).toBe('shell');
    expect(textTypeOfName('README.MD')?.id).toBe('markdown');
    expect(textTypeOfName('ci.yml')?.id).toBe('yaml');
    expect(textTypeOfName('app.log')).toBeNull();
    expect(textTypeOfName('.py')).toBeNull(); // a hidden file's name, not an extension
    expect(textTypeOfName('Makefile')).toBeNull();
  });

  it('makes the file with its name trimmed and its type as chosen', async () => {
    const file = textFile('print("hi")\n', ' hello.py ', textTypeById('python'));
    expect(file.name).toBe('hello.py');
    expect(file.type).toBe('text/x-python');
    expect(await file.text()).toBe('print("hi")\n');
  });
});
