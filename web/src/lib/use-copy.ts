// Copying to the clipboard, with the toasts the brief gives each copy. The page may not be
// allowed the clipboard (an insecure origin, a refused permission): that is a failure to say.
import { useCallback, useEffect, useState } from 'react';
import { toast } from 'sonner';

type CopyMessages = {
  /** The success toast; none when the caller shows success itself. */
  success?: string;
  /** The failure toast; none when the caller offers another way. */
  failure?: string;
};

/** Copies `text`; resolves to whether it was copied. */
export async function copyText(text: string, messages: CopyMessages = {}): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    if (messages.success) toast.success(messages.success);
    return true;
  } catch {
    if (messages.failure) toast.error(messages.failure);
    return false;
  }
}

/**
 * Copies text that is not known yet (a link still being signed, the links of uploads still
 * running). Call it inside the click: a browser that wants a user gesture (Safari, Firefox) has
 * the write begun then, with the text to follow (a ClipboardItem holding a promise). Where that
 * is refused or missing, the text is written once known, after the await (Chromium lets a
 * focused page do so). Resolves to whether it was copied; rejects with `text`'s own failure.
 */
export async function copyTextWhenReady(text: Promise<string>): Promise<boolean> {
  const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
  if (typeof ClipboardItem !== 'undefined' && typeof clipboard?.write === 'function') {
    const blob = text.then((value) => new Blob([value], { type: 'text/plain' }));
    blob.catch(() => {}); // its failure is `text`'s, answered below
    try {
      await clipboard.write([new ClipboardItem({ 'text/plain': blob })]);
      return true;
    } catch {
      // Written below once the text is known, or `text` failed: rethrown below.
    }
  }
  const value = await text;
  try {
    await navigator.clipboard.writeText(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * A clipboard write begun now, inside the click, whose text comes later (`copyTextWhenReady`).
 * Returns the function that gives the text, or null for nothing to copy after all; it resolves
 * to whether the text was copied.
 */
export function beginCopy(): (text: string | null) => Promise<boolean> {
  let settle!: (text: string | null) => void;
  const text = new Promise<string>((resolve, reject) => {
    settle = (value) => (value === null ? reject(new Error('Nothing to copy')) : resolve(value));
  });
  const copied = copyTextWhenReady(text).catch(() => false);
  return (value) => {
    settle(value);
    return copied;
  };
}

const COPIED_FOR_MS = 2000;

/** `copyText`, plus `copied`: true for two seconds after a copy, for a button's check mark. */
export function useCopy() {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = useCallback(async (text: string, messages?: CopyMessages) => {
    const done = await copyText(text, messages);
    if (done) setCopied(true);
    return done;
  }, []);

  return { copy, copied };
}
