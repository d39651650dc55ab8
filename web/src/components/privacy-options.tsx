// Public or Private, as a segmented control's options, and the field that offers them for one
// link or a batch: the upload dialog and Link settings say it alike; Settings' default uses the
// options under its own label.
import { Globe, Lock } from 'lucide-react';
import { FormField } from './form-field.tsx';
import { SegmentedControl } from './ui/segmented-control.tsx';

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

export function PrivacyField({
  isPublic,
  onChange,
  disabled,
  error,
}: {
  isPublic: boolean;
  onChange: (isPublic: boolean) => void;
  disabled?: boolean;
  error?: string | null;
}) {
  return (
    <FormField
      layout="row"
      label="Privacy"
      hint={isPublic ? 'Anyone with the link can open it' : 'Only you can open it'}
      error={error}
    >
      <SegmentedControl
        value={isPublic ? 'public' : 'private'}
        options={PRIVACY_OPTIONS}
        onValueChange={(value) => onChange(value === 'public')}
        disabled={disabled}
      />
    </FormField>
  );
}
