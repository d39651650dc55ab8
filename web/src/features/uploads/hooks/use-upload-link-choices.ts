// The upload dialog's link choices for a batch: privacy, expiry, view limit and password, each
// starting from the user's preferences. What is shown is what is sent; only while the
// preferences are unknown (still loading, or failed) is an untouched choice left to the server,
// which applies the same preferences.
import { NEVER_EXPIRES } from '@upshot/contract/constants';
import { useCallback, useState } from 'react';
import { parseViewLimit, passwordProblem, VIEW_LIMIT_ERROR } from '../../../lib/link-options.ts';
import { usePreferencesQuery } from '../../preferences/index.ts';
import type { UploadLinkOptions } from '../upload-file.ts';

/** The choices the user has made in this dialog; the others show the preferences. */
type Draft = { isPublic?: boolean; expires?: string; maxViews?: string; password?: string };

export type UploadLinkChoices = {
  isPublic: boolean;
  /** 'never' or a duration. */
  expires: string;
  /** The preference's expiry, marked as the default among the choices. */
  defaultExpiry: string | undefined;
  /** As typed: empty for no limit. */
  maxViews: string;
  password: string;
};

export function useUploadLinkChoices() {
  const { data } = usePreferencesQuery();
  const preferences = data?.preferences;
  const [draft, setDraft] = useState<Draft>({});

  const shown: UploadLinkChoices = {
    isPublic: draft.isPublic ?? preferences?.defaultUploadPrivacy ?? true,
    expires: draft.expires ?? preferences?.defaultExpiry ?? NEVER_EXPIRES,
    defaultExpiry: preferences?.defaultExpiry,
    maxViews: draft.maxViews ?? String(preferences?.defaultMaxViews ?? ''),
    password: draft.password ?? '',
  };
  const maxViews = parseViewLimit(shown.maxViews);
  const known = preferences !== undefined;

  const options: UploadLinkOptions = {};
  if (known || draft.isPublic !== undefined) options.isPublic = shown.isPublic;
  if (known || draft.expires !== undefined) options.expires = shown.expires;
  if ((known || draft.maxViews !== undefined) && maxViews !== undefined) {
    options.maxViews = maxViews;
  }
  if (shown.password !== '') options.password = shown.password;

  const errors = {
    maxViews: maxViews === undefined ? VIEW_LIMIT_ERROR : null,
    password: passwordProblem(shown.password),
  };

  return {
    shown,
    /** What each file of the batch is sent with. */
    options,
    /** What the server would refuse, by field, as typed. */
    errors,
    /** Whether the server takes every choice as it is. */
    valid: errors.maxViews === null && errors.password === null,
    change: useCallback((changes: Draft) => setDraft((d) => ({ ...d, ...changes })), []),
    /** Back to the preferences, for the next batch. */
    reset: useCallback(() => setDraft({}), []),
  };
}

export type UploadLinkState = ReturnType<typeof useUploadLinkChoices>;
