import { useEffect, useState } from 'react';

/** The time now, in milliseconds, taken again every `everyMs` (for texts such as "in 3 days"). */
export function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
