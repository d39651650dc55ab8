import type { Upload } from '@upshot/contract';
import { VANITY_MAX } from '@upshot/contract/constants';
import { X } from 'lucide-react';
import { useState, type ComponentProps, type FormEvent } from 'react';
import { FormField } from '../../../components/form-field.tsx';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';
import { cn } from '../../../lib/utils.ts';
import { useServerConfig } from '../../system/index.ts';

type VanityUrlDialogProps = {
  /** The upload being edited; kept while the dialog animates closed. */
  upload: Upload | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Saves the value (null removes it) and resolves to the server's reason when it refuses. */
  onSave: (upload: Upload, vanityUrl: string | null) => Promise<string | null>;
};

/**
 * The origin every link starts with: the server's CONTENT_URL (else PUBLIC_URL), which may
 * differ from the address this app was opened at. Until the config has loaded, the upload's own
 * link says it too.
 */
function linkOrigin(contentUrl: string | undefined, upload: Upload): string {
  if (contentUrl !== undefined) return `${contentUrl}/`;
  return upload.url.slice(0, upload.url.lastIndexOf('/') + 1);
}

/**
 * The input drawn after the link's origin, with a button that empties it. The form field's
 * props (id, aria-*) go to the input.
 */
function PrefixedInput({
  prefix,
  onClear,
  ...input
}: ComponentProps<'input'> & { prefix: string; onClear: () => void }) {
  return (
    <div
      className={cn(
        'flex h-9 items-center overflow-hidden rounded-md border border-input bg-input/30 shadow-xs transition-[color,box-shadow] focus-within:border-ring focus-within:ring-[3px] focus-within:ring-ring/50',
        input['aria-invalid'] && 'border-destructive ring-destructive/40',
      )}
    >
      <span
        className="max-w-[40%] shrink-0 truncate border-r border-input bg-muted/50 px-3 py-2 font-mono text-xs text-muted-foreground sm:max-w-[55%]"
        title={prefix}
      >
        {prefix}
      </span>
      <input
        {...input}
        className="h-full min-w-0 flex-1 bg-transparent px-2 font-mono text-sm outline-none placeholder:text-muted-foreground/60 disabled:opacity-50"
      />
      {input.value !== '' && (
        <button
          type="button"
          aria-label="Clear custom URL"
          title="Clear"
          onClick={onClear}
          disabled={input.disabled}
          className="mr-1 rounded-sm p-1 text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring/50"
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      )}
    </div>
  );
}

/** The Custom Short URL dialog: pick the path after the site's origin. */
export function VanityUrlDialog({ upload, open, onOpenChange, onSave }: VanityUrlDialogProps) {
  return (
    <Dialog open={open && upload !== null} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md">
        {upload && (
          <VanityUrlForm
            key={upload.id}
            upload={upload}
            onCancel={() => onOpenChange(false)}
            onSave={onSave}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function VanityUrlForm({
  upload,
  onCancel,
  onSave,
}: {
  upload: Upload;
  onCancel: () => void;
  onSave: VanityUrlDialogProps['onSave'];
}) {
  const [value, setValue] = useState(upload.vanityUrl ?? '');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { data: config } = useServerConfig();
  const origin = linkOrigin(config?.contentUrl, upload);
  const trimmed = value.trim();

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(null);
    const refusal = await onSave(upload, trimmed === '' ? null : trimmed);
    setSaving(false);
    if (refusal === null) onCancel();
    else setError(refusal);
  };

  return (
    <form onSubmit={(event) => void handleSubmit(event)} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Custom Short URL</DialogTitle>
        <DialogDescription className="break-words">
          Choose a memorable link for {upload.originalFilename}.
        </DialogDescription>
      </DialogHeader>

      <FormField
        label="Custom URL"
        hint="3-50 characters: letters, numbers, hyphens and underscores"
        error={error}
      >
        <PrefixedInput
          prefix={origin}
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            setError(null);
          }}
          onClear={() => {
            setValue('');
            setError(null);
          }}
          maxLength={VANITY_MAX}
          placeholder={upload.shortCode}
          autoComplete="off"
          spellCheck={false}
          autoFocus
          disabled={saving}
        />
      </FormField>

      <div className="grid gap-1 rounded-lg border bg-muted/30 px-3 py-2.5">
        <span className="text-xs font-medium text-muted-foreground">Preview</span>
        <output aria-label="Preview" className="font-mono text-sm break-all">
          {origin}
          {trimmed || upload.shortCode}
        </output>
      </div>

      {upload.vanityUrl && (
        <p className="text-xs break-all text-muted-foreground">
          Current custom URL:{' '}
          <span className="font-mono text-foreground">
            {origin}
            {upload.vanityUrl}
          </span>
        </p>
      )}

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  );
}
