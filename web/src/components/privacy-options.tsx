// Public or Private, as a segmented control's options: the upload dialog, Link settings and the
// default in Settings offer the same two.
import { Globe, Lock } from 'lucide-react';

export type Privacy = 'public' | 'private';

export const PRIVACY_OPTIONS = [
  {
    value: 'public',
    label: (
      <>
        <Globe aria-hidden="true" />
        Public
      </>
    ),
  },
  {
    value: 'private',
    label: (
      <>
        <Lock aria-hidden="true" />
        Private
      </>
    ),
  },
] as const;
