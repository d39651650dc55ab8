// Files dragged over the Uploads screen: anywhere is a drop target (the screen shows where the
// files will go), and dropped files join the upload queue. Text and links dragged about (a
// selection, a card's link, a thumbnail) are not files and are left to the page.
import { fromEvent } from 'file-selector';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { otherDialogOpen } from '../open-dialogs.ts';

/** Whether a drag carries files from outside the page (the desktop, a file manager). */
function carriesFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

/**
 * Returns whether files are being dragged over the screen and would be taken (not while a
 * dialog other than the upload dialog is open: open-dialogs.ts).
 */
export function usePageDrop({ onFiles }: { onFiles: (files: File[]) => void }): boolean {
  const [over, setOver] = useState(false);
  // dragenter and dragleave fire for every element crossed: the count says whether any is left.
  const depth = useRef(0);
  // A drag begun inside the page (an image of a card) is never one from outside.
  const inner = useRef(false);

  const isOurs = (event: DragEvent) => !inner.current && carriesFiles(event);

  const onDragEnter = useEffectEvent((event: DragEvent) => {
    if (!isOurs(event)) return;
    depth.current += 1;
    setOver(!otherDialogOpen());
  });

  const onDragOver = useEffectEvent((event: DragEvent) => {
    if (!isOurs(event)) return;
    // Always held: a file let fall on a page that does not take it is opened in its place.
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = otherDialogOpen() ? 'none' : 'copy';
  });

  const onDragLeave = useEffectEvent((event: DragEvent) => {
    if (!isOurs(event)) return;
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setOver(false);
  });

  const onDrop = useEffectEvent((event: DragEvent) => {
    if (!isOurs(event)) return;
    depth.current = 0;
    setOver(false);
    // The upload dialog's own drop zone has taken these already.
    if (event.defaultPrevented) return;
    event.preventDefault();
    if (otherDialogOpen()) return;
    // Read as the dialog's drop zone reads them: a dropped folder gives the files inside it
    // (its entry in `files` is no file, and fails once sent).
    void fromEvent(event).then(
      (found) => {
        const files = found.flatMap((item) => (item instanceof File ? [item] : []));
        if (files.length > 0) onFiles(files);
      },
      () => undefined,
    ); // a folder that cannot be read adds nothing
  });

  useEffect(() => {
    const start = () => (inner.current = true);
    const end = () => {
      inner.current = false;
      depth.current = 0;
      setOver(false);
    };
    const listeners = {
      dragstart: start,
      dragend: end,
      dragenter: (event: DragEvent) => onDragEnter(event),
      dragover: (event: DragEvent) => onDragOver(event),
      dragleave: (event: DragEvent) => onDragLeave(event),
      drop: (event: DragEvent) => onDrop(event),
    };
    // On the window, so the page's own handlers (the dialog's drop zone) have run first.
    for (const [type, listener] of Object.entries(listeners)) {
      window.addEventListener(type, listener as EventListener);
    }
    return () => {
      for (const [type, listener] of Object.entries(listeners)) {
        window.removeEventListener(type, listener as EventListener);
      }
    };
  }, []);

  return over;
}
