import type { Upload } from '@upshot/contract';
import { VANITY_MAX } from '@upshot/contract/constants';
import { X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { cn } from '../../../lib/utils.ts';
import { useServerConfig } from '../../config/index.ts';

type VanityUrlDialogProps = {
  /** The upload being edited; kept while the dialog animates closed. */
  upload: Upload | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Saves the value (null removes it) and resolves to the server's reason when it refuses. */
  onSave: (upload: Upload, vanityUrl: string | null) => Promise<string | null>;
};

/**
 * The origin every link starts with: the server's PUBLIC_URL, which may differ from the address
 * this app was opened at. Until the config has loaded, the upload's own link says it too.
 */
function linkOrigin(publicUrl: string | undefined, upload: Upload): string {
  if (publicUrl !== undefined) return `${publicUrl}/`;
  return upload.url.slice(0, upload.url.lastIndexOf('/') + 1);
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
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const { data: config } = useServerConfig();
  const origin = linkOrigin(config?.publicUrl, upload);
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

      <div className="grid gap-2">
        <Label htmlFor={inputId}>Custom URL</Label>
        <div
          className={cn(
            'flex h-9 items-center overflow-hidden rounded-md border border-input bg-input/30 shadow-xs transition-[color,box-shadow] focus-within:border-ring focus-within:ring-[3px] focus-within:ring-ring/50',
            error && 'border-destructive ring-destructive/40',
          )}
        >
          <span
            className="max-w-[40%] shrink-0 truncate sm:max-w-[55%] border-r border-input bg-muted/50 px-3 py-2 font-mono text-xs text-muted-foreground"
            title={origin}
          >
            {origin}
          </span>
          <input
            id={inputId}
            value={value}
            onChange={(event) => {
              setValue(event.target.value);
              setError(null);
            }}
            maxLength={VANITY_MAX}
            placeholder={upload.shortCode}
            autoComplete="off"
            spellCheck={false}
            autoFocus
            disabled={saving}
            aria-describedby={error ? `${hintId} ${errorId}` : hintId}
            aria-invalid={error ? true : undefined}
            className="h-full min-w-0 flex-1 bg-transparent px-2 font-mono text-sm outline-none placeholder:text-muted-foreground/60 disabled:opacity-50"
          />
          {value !== '' && (
            <button
              type="button"
              aria-label="Clear custom URL"
              title="Clear"
              onClick={() => {
                setValue('');
                setError(null);
              }}
              disabled={saving}
              className="mr-1 rounded-sm p-1 text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring/50"
            >
              <X aria-hidden="true" className="size-4" />
            </button>
          )}
        </div>
        <p id={hintId} className="text-xs text-muted-foreground">
          3-50 characters: letters, numbers, hyphens and underscores
        </p>
        {error && (
          <p id={errorId} role="alert" className="text-xs text-destructive">
            {error}
          </p>
        )}
      </div>

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
