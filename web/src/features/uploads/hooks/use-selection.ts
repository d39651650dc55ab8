import { useCallback, useState } from 'react';

/** Which cards are ticked, by upload id. */
export function useSelection() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());

  const toggle = useCallback((id: string, checked: boolean) => {
    setSelected((current) => {
      const next = new Set(current);
      if (checked) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);

  /** Ticks every listed id, or clears the selection when all of them are ticked already. */
  const toggleAll = useCallback((ids: readonly string[]) => {
    setSelected((current) =>
      ids.length > 0 && ids.every((id) => current.has(id)) ? new Set() : new Set(ids),
    );
  }, []);

  const clear = useCallback(() => setSelected(new Set()), []);

  return { selected, toggle, toggleAll, clear };
}
