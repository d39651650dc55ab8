/**
 * Waits for `work` at most `ms`: resolves true when it finished in time, false when it failed
 * or is still running (it goes on; `onError` hears of a late failure too). For work that must
 * never hold up or fail what waits for it, such as counting a view before a download.
 */
export async function settleWithin(
  work: Promise<unknown>,
  ms: number,
  onError: (err: unknown) => void,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const done = work.then(
    () => true,
    (err: unknown) => {
      onError(err);
      return false;
    },
  );
  try {
    return await Promise.race([done, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
