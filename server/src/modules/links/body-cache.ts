/**
 * The bytes of recently served small objects, by storage key. An object's bytes never change:
 * keys are made from a new id for every upload and thumbnail, and an object is written once,
 * atomically. So a cached body is always the object's, for as long as it exists; whether it
 * may be served is decided by its upload's row, read from the database for every request.
 * Reading a small file cost an open, a read and a close per request.
 *
 * Eviction is "second chance": a hit only marks its entry (a Map re-insertion per hit made
 * garbage on every download); when room is needed, the oldest entries go unless marked, and
 * marked ones are moved to the end, unmarked.
 */
export type BodyCache = ReturnType<typeof createBodyCache>;

export function createBodyCache(maxBytes: number) {
  const entries = new Map<string, { body: Buffer; used: boolean }>();
  let bytes = 0;
  return {
    get(key: string): Buffer | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entry.used = true;
      return entry.body;
    },

    set(key: string, body: Buffer): void {
      if (body.length > maxBytes || entries.has(key)) return;
      entries.set(key, { body, used: false });
      bytes += body.length;
      // Each marked entry is passed over once (its mark cleared), so this ends; the body just
      // added stays (it fits on its own).
      for (const [oldest, entry] of entries) {
        if (bytes <= maxBytes) break;
        if (oldest === key) continue;
        entries.delete(oldest);
        if (entry.used) {
          entry.used = false;
          entries.set(oldest, entry);
        } else {
          bytes -= entry.body.length;
        }
      }
    },

    get size() {
      return { entries: entries.size, bytes };
    },
  };
}
