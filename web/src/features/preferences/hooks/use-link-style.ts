import type { LinkStyle } from '@upshot/contract';
import { usePreferencesQuery } from '../api.ts';

/**
 * Which link the web app hands out (Copy URL, the clipboard after an upload): the file itself
 * (`raw`) or its preview page. The file's until the preferences have answered (the default).
 */
export function useLinkStyle(): LinkStyle {
  return usePreferencesQuery().data?.preferences.linkStyle ?? 'raw';
}
