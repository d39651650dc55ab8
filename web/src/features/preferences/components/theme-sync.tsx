import { useEffect } from 'react';
import { usePreferencesQuery } from '../api.ts';
import { applyTheme } from '../theme.ts';

/**
 * Applies the signed-in user's theme while it is mounted (in the signed-in frame); signing out
 * unmounts it and the screens go back to the dark they start with.
 */
export function ThemeSync() {
  const theme = usePreferencesQuery().data?.preferences.theme;
  useEffect(() => {
    if (!theme) return;
    applyTheme(theme);
    return () => applyTheme('dark');
  }, [theme]);
  return null;
}
