/**
 * Gathers items and hands them to `flush` together, one flush at a time: a batch is flushed
 * once the turn of the event loop it opened in has run its I/O callbacks (setImmediate) and the
 * previous flush has settled, so items that arrive while a flush runs join the next batch.
 * Each add() settles when its batch has, so a caller that awaits it knows its item was flushed.
 */
export function turnBatcher<T>(flush: (items: T[]) => Promise<void>): (item: T) => Promise<void> {
  let open: { items: T[]; flushed: Promise<void> } | null = null;
  let previous: Promise<unknown> = Promise.resolve();
  return (item) => {
    if (!open) {
      const items: T[] = [];
      const turnEnded = new Promise((resolve) => setImmediate(resolve));
      const flushed = Promise.all([turnEnded, previous.catch(() => undefined)]).then(() => {
        open = null;
        return flush(items);
      });
      previous = flushed;
      open = { items, flushed };
    }
    open.items.push(item);
    return open.flushed;
  };
}
