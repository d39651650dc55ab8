// What the tag editor offers for the text typed: existing tags to add, or a new one to create.
import type { Tag } from '@upshot/contract';
import { TAG_NAME_MAX, TAG_SUGGESTIONS } from '@upshot/contract/constants';

export type TagChoices<T extends Tag> = {
  /** The typed text, trimmed: the name a created tag would get. */
  name: string;
  /** Tags not on the upload whose names contain the text (ignoring case): those that start
   * with it first, at most TAG_SUGGESTIONS. With no text, the first tags not on the upload. */
  suggestions: T[];
  /** The tag named exactly so (ignoring case), if any: on the upload or not. */
  exact: T | undefined;
  /** The exact tag can be added: it exists and the upload does not have it yet. */
  canAddExact: boolean;
  /** A tag of this name can be created: the trimmed text is not empty and no tag has it. */
  canCreate: boolean;
};

const fold = (s: string) => s.toLocaleLowerCase();

export function tagChoices<T extends Tag>(
  allTags: readonly T[],
  onUpload: readonly Tag[],
  text: string,
  limit: number = TAG_SUGGESTIONS,
): TagChoices<T> {
  const name = text.trim();
  const wanted = fold(name);
  const present = new Set(onUpload.map((tag) => tag.id));
  const exact = name === '' ? undefined : allTags.find((tag) => fold(tag.name) === wanted);

  const available = allTags.filter((tag) => !present.has(tag.id));
  const starting = available.filter((tag) => fold(tag.name).startsWith(wanted));
  const containing = available.filter(
    (tag) => !fold(tag.name).startsWith(wanted) && fold(tag.name).includes(wanted),
  );

  return {
    name,
    suggestions: [...starting, ...containing].slice(0, Math.max(0, limit)),
    exact,
    canAddExact: exact !== undefined && !present.has(exact.id),
    canCreate: name !== '' && [...name].length <= TAG_NAME_MAX && exact === undefined,
  };
}
