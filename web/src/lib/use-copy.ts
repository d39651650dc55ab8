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
