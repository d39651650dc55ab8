import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** Scrolls to the element the URL's #hash names, as a full page load would. */
export function useScrollToHash(): void {
  const { hash } = useLocation();
  useEffect(() => {
    if (hash.length < 2) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ block: 'start' });
  }, [hash]);
}
