// Link settings: an upload's privacy, expiry, view limit and password, changed after the fact.
// Only what changed is sent; a refusal shows under the field the server names.
import type { UpdateUploadRequest, Upload } from '@upshot/contract';
import { LINK_PASSWORD_MAX, NEVER_EXPIRES } from '@upshot/contract/constants';
import { useState, type FormEvent } from 'react';
import { FormError, FormField } from '../../../components/form-field.tsx';
import { PrivacyField } from '../../../components/privacy-options.tsx';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { ViewLimitInput } from '../../../components/view-limit-input.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { SegmentedControl } from '../../../components/ui/segmented-control.tsx';
import { formatDate } from '../../../lib/format.ts';
import { EXPIRY_PRESETS, expiryLabel, VIEW_LIMIT_HINT } from '../../../lib/link-options.ts';
import {
  initialLinkForm,
  KEEP,
  linkChanges,
  ON_DATE,
  placeRefusal,
  toLocalInput,
  type LinkErrors,
  type LinkForm,
  type PasswordChoice,
} from '../link-settings.ts';

type LinkSettingsDialogProps = {
  /** The upload being edited; kept while the dialog animates closed. */
  upload: Upload | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Saves the changes and resolves to the server's reason when it refuses. */
  onSave: (upload: Upload, changes: UpdateUploadRequest) => Promise<string | null>;
};

export function LinkSettingsDialog({
  upload,
  open,
  onOpenChange,
  onSave,
}: LinkSettingsDialogProps) {
  const [saving, setSaving] = useState(false);
  return (
    <Dialog open={open && upload !== null} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md" busy={saving}>
        {upload && (
          <LinkSettingsForm
            key={upload.id}
            upload={upload}
            saving={saving}
            onSavingChange={setSaving}
            onClose={() => onOpenChange(false)}
            onSave={onSave}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function passwordOptions(hasPassword: boolean) {
  return hasPassword
    ? ([
        { value: 'keep', label: 'Keep' },
        { value: 'set', label: 'Change' },
        { value: 'remove', label: 'Remove' },
      ] as const)
    : ([
        { value: 'keep', label: 'None' },
        { value: 'set', label: 'Set' },
      ] as const);
}

function currentExpiry(expiresAt: string | null): string {
  if (expiresAt === null) return 'Currently never';
  const when = formatDate(expiresAt);
  return new Date(expiresAt).getTime() <= Date.now() ? `Expired ${when}` : `Currently ${when}`;
}

function LinkSettingsForm({
  upload,
  saving,
  onSavingChange: setSaving,
  onClose,
  onSave,
}: {
  upload: Upload;
  /** Held by the dialog, which cannot be dismissed meanwhile. */
  saving: boolean;
  onSavingChange: (saving: boolean) => void;
  onClose: () => void;
  onSave: LinkSettingsDialogProps['onSave'];
}) {
  const [form, setForm] = useState<LinkForm>(() => initialLinkForm(upload));
  const [errors, setErrors] = useState<LinkErrors>({});
  const now = Date.now();
  const result = linkChanges(upload, form, now);
  const unchanged = 'changes' in result && Object.keys(result.changes).length === 0;

  const edit = (changes: Partial<LinkForm>, field: keyof LinkErrors) => {
    setForm((current) => ({ ...current, ...changes }));
    setErrors((current) => ({ ...current, [field]: undefined, form: undefined }));
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if ('errors' in result) {
      setErrors(result.errors);
      return;
    }
    setSaving(true);
    setErrors({});
    const refusal = await onSave(upload, result.changes);
    setSaving(false);
    if (refusal === null) onClose();
    else setErrors(placeRefusal(refusal));
  };

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Link settings</DialogTitle>
        <DialogDescription className="break-words">
          Who can open {upload.originalFilename}, for how long and how often.
        </DialogDescription>
      </DialogHeader>

      <PrivacyField
        isPublic={form.isPublic}
        onChange={(isPublic) => edit({ isPublic }, 'isPublic')}
        disabled={saving}
        error={errors.isPublic}
      />

      <FormField
        label="Expires"
        hint={`${currentExpiry(upload.expiresAt)}. A duration counts from now.`}
        error={form.expiry === ON_DATE ? null : errors.expiresAt}
      >
        <NativeSelect
          value={form.expiry}
          onChange={(event) => edit({ expiry: event.target.value }, 'expiresAt')}
          disabled={saving}
        >
          {upload.expiresAt !== null && (
            <option value={KEEP}>Keep: {formatDate(upload.expiresAt)}</option>
          )}
          {EXPIRY_PRESETS.map((value) => (
            <option key={value} value={value}>
              {value === NEVER_EXPIRES ? 'Never' : `In ${expiryLabel(value)}`}
            </option>
          ))}
          <option value={ON_DATE}>On a date...</option>
        </NativeSelect>
      </FormField>
      {form.expiry === ON_DATE && (
        <FormField label="Expiry date" hint="In your time zone" error={errors.expiresAt}>
          <Input
            type="datetime-local"
            min={toLocalInput(new Date(now))}
            value={form.expiryDate}
            onChange={(event) => edit({ expiryDate: event.target.value }, 'expiresAt')}
            disabled={saving}
          />
        </FormField>
      )}

      <FormField label="View limit" hint={viewLimitHint(upload)} error={errors.maxViews}>
        <ViewLimitInput
          value={form.maxViews}
          onChange={(event) => edit({ maxViews: event.target.value }, 'maxViews')}
          disabled={saving}
        />
      </FormField>

      <FormField
        layout="row"
        label="Password"
        hint={upload.hasPassword ? 'Visitors must type it to open the link' : 'None yet'}
        error={form.password === 'set' ? null : errors.password}
      >
        <SegmentedControl<PasswordChoice>
          value={form.password}
          options={passwordOptions(upload.hasPassword)}
          onValueChange={(password) => edit({ password, newPassword: '' }, 'password')}
          disabled={saving}
        />
      </FormField>
      {form.password === 'set' && (
        <FormField label="New password" error={errors.password}>
          <Input
            type="password"
            autoComplete="new-password"
            maxLength={LINK_PASSWORD_MAX}
            value={form.newPassword}
            onChange={(event) => edit({ newPassword: event.target.value }, 'password')}
            disabled={saving}
            autoFocus
          />
        </FormField>
      )}

      {errors.form && <FormError>{errors.form}</FormError>}

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose} disabled={saving}>
          Cancel
        </Button>
        <Button type="submit" disabled={saving || unchanged}>
          {saving ? 'Saving...' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  );
}

function viewLimitHint({ maxViews, viewsLeft }: Upload): string {
  if (maxViews === null) return `${VIEW_LIMIT_HINT}. A new limit counts views from now.`;
  const used = maxViews - Math.max(0, viewsLeft ?? maxViews);
  return `${VIEW_LIMIT_HINT}. ${used} of ${maxViews} used so far.`;
}
