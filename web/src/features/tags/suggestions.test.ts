import type { TagSummary } from '@upshot/contract';
import { TAG_NAME_MAX, TAG_SUGGESTIONS } from '@upshot/contract/constants';
import { describe, expect, it } from 'vitest';
import { tagChoices } from './suggestions.ts';

const tag = (id: string, name: string): TagSummary => ({ id, name, uploadCount: 0 });
const names = (tags: readonly { name: string }[]) => tags.map((t) => t.name);

// Sorted by name, as the server lists them.
const all = [
  tag('t1', 'Holiday'),
  tag('t2', 'holiday-2024'),
  tag('t3', 'Old photos'),
  tag('t4', 'Photos'),
  tag('t5', 'photoshop'),
  tag('t6', 'PHOTO-raw'),
  tag('t7', 'screenshots'),
  tag('t8', 'work'),
];

describe('tagChoices', () => {
  it('suggests at most five tags', () => {
    expect(TAG_SUGGESTIONS).toBe(5);
    const many = Array.from({ length: 12 }, (_, i) => tag(`m${i}`, `memo-${i}`));
    expect(tagChoices(many, [], 'memo').suggestions).toHaveLength(5);
    expect(tagChoices(many, [], '').suggestions).toHaveLength(5);
    expect(tagChoices(many, [], 'memo', 2).suggestions).toHaveLength(2);
  });

  it('matches regardless of case, names that start with the text first', () => {
    expect(names(tagChoices(all, [], 'PHOTO').suggestions)).toEqual([
      'Photos',
      'photoshop',
      'PHOTO-raw',
      'Old photos',
    ]);
    expect(names(tagChoices(all, [], 'hOlIdAy').suggestions)).toEqual(['Holiday', 'holiday-2024']);
    expect(tagChoices(all, [], 'zzz').suggestions).toEqual([]);
  });

  it('leaves out the tags the upload has already', () => {
    const onUpload = [
      { id: 't4', name: 'Photos' },
      { id: 't3', name: 'Old photos' },
    ];
    expect(names(tagChoices(all, onUpload, 'photo').suggestions)).toEqual([
      'photoshop',
      'PHOTO-raw',
    ]);
    // With no text: the first tags the upload does not have.
    expect(names(tagChoices(all, onUpload, '').suggestions)).toEqual([
      'Holiday',
      'holiday-2024',
      'photoshop',
      'PHOTO-raw',
      'screenshots',
    ]);
  });

  it('offers to create only a trimmed, non-empty name that no tag has', () => {
    for (const blank of ['', ' ', '   ', '\t \n']) {
      expect(tagChoices(all, [], blank)).toMatchObject({ name: '', canCreate: false });
    }
    expect(tagChoices(all, [], '  travel  ')).toMatchObject({ name: 'travel', canCreate: true });
    // An existing name, in any case, is added rather than created twice.
    const existing = tagChoices(all, [], ' photos ');
    expect(existing).toMatchObject({ canCreate: false, canAddExact: true });
    expect(existing.exact?.id).toBe('t4');
    expect(tagChoices(all, [], 'x'.repeat(TAG_NAME_MAX + 1)).canCreate).toBe(false);
  });

  it('does not offer the exact tag again when the upload has it', () => {
    const choices = tagChoices(all, [{ id: 't8', name: 'work' }], 'WORK');
    expect(choices).toMatchObject({ canAddExact: false, canCreate: false, suggestions: [] });
  });
});
