/**
 * Gathers the items added during one turn of the event loop and hands them to `flush` together
 * once the turn's I/O callbacks have run (setImmediate). Each add() settles when its batch has,
 * so a caller that awaits it knows its item was flushed.
 */
export function turnBatcher<T>(flush: (items: T[]) => Promise<void>): (item: T) => Promise<void> {
  let open: { items: T[]; flushed: Promise<void> } | null = null;
  return (item) => {
    if (!open) {
      const items: T[] = [];
      const flushed = new Promise<void>((resolve, reject) => {
        setImmediate(() => {
          open = null;
          flush(items).then(resolve, reject);
        });
      });
      open = { items, flushed };
    }
    open.items.push(item);
    return open.flushed;
  };
}
