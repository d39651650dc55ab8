// The preferences feature's public surface; other modules import from here, never from its internals.
export { usePreferencesQuery } from './api.ts';
export { PreferencesCard } from './components/preferences-card.tsx';
export { ThemeSync } from './components/theme-sync.tsx';
export { useLinkStyle } from './hooks/use-link-style.ts';
export { useUploadsPerPage } from './hooks/use-uploads-per-page.ts';
export { applyTheme } from './theme.ts';
