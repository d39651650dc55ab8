// Puts a theme on the page: the `dark` class the palette hangs on (index.css), the color-scheme
// of native controls and scrollbars, and the browser's toolbar colour. index.html paints dark
// first; the user's choice follows once their preferences have loaded.
import type { Theme } from '@upshot/contract';
import { isDarkTheme } from './rules.ts';

const THEME_COLORS = { dark: '#0a0a0a', light: '#ffffff' } as const;

export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  const scheme = isDarkTheme(theme) ? 'dark' : 'light';
  root.classList.toggle('dark', scheme === 'dark');
  root.style.colorScheme = scheme;
  const doc = root.ownerDocument;
  doc.querySelector('meta[name="color-scheme"]')?.setAttribute('content', scheme);
  doc.querySelector('meta[name="theme-color"]')?.setAttribute('content', THEME_COLORS[scheme]);
}
