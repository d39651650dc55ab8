import { useSyncExternalStore, type CSSProperties } from 'react';
import { Toaster as Sonner, type ToasterProps } from 'sonner';

/** The palette on screen: the `dark` class on <html> (set by index.html, then the user's theme). */
function readPalette(): 'dark' | 'light' {
  return document.documentElement.classList.contains('dark') ? 'dark' : 'light';
}

function watchPalette(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}

/**
 * The app's toast stack, configured to the brief: top right, 4000 ms, 3 visible, 14 px gap,
 * 356 px wide, dismissible by close button or swipe.
 * Sonner has no props for the swipe threshold or the removal delay: sonner 2 hard-codes the
 * 200 ms removal delay the brief asks for, and a plugin in vite.config.ts sets its 45 px swipe
 * threshold to the brief's 20 px (unit tests load sonner untransformed; the browser tests
 * check the 20 px). Toasts take the palette on screen, light or dark.
 */
export function Toaster(props: ToasterProps) {
  const palette = useSyncExternalStore(watchPalette, readPalette);
  return (
    <Sonner
      theme={palette}
      position="top-right"
      duration={4000}
      visibleToasts={3}
      gap={14}
      closeButton
      className="toaster group"
      toastOptions={{
        duration: 4000,
        // Sonner's dark theme paints descriptions near-white; the palette's colour suits both themes.
        classNames: { description: 'text-muted-foreground!' },
      }}
      style={
        {
          '--width': '356px',
          '--normal-bg': 'var(--popover)',
          '--normal-text': 'var(--popover-foreground)',
          '--normal-border': 'var(--border)',
        } as CSSProperties
      }
      {...props}
    />
  );
}
