// Paste on the Uploads screen: a file or picture on the clipboard goes to the upload queue, text
// is offered as a text upload. A paste into a text field is the field's, as everywhere else.
import { useEffect, useEffectEvent } from 'react';
import { otherDialogOpen } from '../open-dialogs.ts';

/** Inputs that take no typed text: a paste there is no one's. */
const NON_TEXT_INPUTS = new Set([
  'button',
  'checkbox',
  'color',
  'file',
  'hidden',
  'image',
  'radio',
  'range',
  'reset',
  'submit',
]);

/** Whether a paste at `target` belongs to a field that takes text. */
export function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement) return true;
  return target instanceof HTMLInputElement && !NON_TEXT_INPUTS.has(target.type);
}

/**
 * A pasted picture is named by the browser (`image.png`, every time): one of the viewer's date
 * and time tells one screenshot's card from the next, as New text's default name does.
 */
function named(file: File, now: Date): File {
  const generic = /^image\.(\w+)$/.exec(file.name);
  if (!generic) return file;
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return new File([file], `paste-${stamp}.${generic[1]}`, {
    type: file.type,
    lastModified: file.lastModified,
  });
}

/** The clipboard's files: a copied file, or a picture (a screenshot) as a file. */
function filesOf(data: DataTransfer): File[] {
  let files = Array.from(data.files ?? []);
  if (files.length === 0) {
    files = Array.from(data.items ?? []).flatMap((item) =>
      item.kind === 'file' ? (item.getAsFile() ?? []) : [],
    );
  }
  const now = new Date();
  return files.map((file) => named(file, now));
}

type PasteHandlers = {
  /** Given the clipboard's files; false (or missing) leaves the paste alone. */
  onFiles?: ((files: File[]) => void) | false;
  /** Given the clipboard's text, when it holds no file; false leaves the paste alone. */
  onText?: ((text: string) => void) | false;
};

/** Listens for pastes anywhere in the document while the screen is shown. */
export function usePagePaste({ onFiles, onText }: PasteHandlers) {
  const handle = useEffectEvent((event: ClipboardEvent) => {
    const data = event.clipboardData;
    if (event.defaultPrevented || !data || isTextField(event.target) || otherDialogOpen()) return;
    // A copied file often comes with text too (its name or path): the file is what was meant.
    const files = filesOf(data);
    if (files.length > 0) {
      if (!onFiles) return;
      event.preventDefault();
      onFiles(files);
      return;
    }
    const text = data.getData('text/plain');
    if (text.trim() === '' || !onText) return;
    event.preventDefault();
    onText(text);
  });

  useEffect(() => {
    const listener = (event: ClipboardEvent) => handle(event);
    document.addEventListener('paste', listener);
    return () => document.removeEventListener('paste', listener);
  }, []);
}
