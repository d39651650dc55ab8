/**
 * The store with its writes in flight counted, so that a shutdown can wait for those a request
 * cut off at the deadline is still ending: each removes its temporary file (local disk) or
 * aborts its multipart upload (S3) on its error path, which would not run after process.exit.
 */
import type { Storage } from './storage.ts';

export type TrackedStorage<S extends Storage> = S & {
  /** Resolves once every write begun so far has ended, however it ended. */
  writesSettled(): Promise<void>;
};

export function trackWrites<S extends Storage>(storage: S): TrackedStorage<S> {
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(write: Promise<T>): Promise<T> => {
    const ended: Promise<unknown> = write
      .catch(() => undefined)
      .finally(() => inFlight.delete(ended));
    inFlight.add(ended);
    return write;
  };
  return {
    ...storage,
    put: (...args: Parameters<Storage['put']>) => track(storage.put(...args)),
    putPart: (...args: Parameters<Storage['putPart']>) => track(storage.putPart(...args)),
    async writesSettled() {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
  };
}
