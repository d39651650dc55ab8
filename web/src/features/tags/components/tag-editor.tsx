// A card's tags: a badge per tag with its remove button, and the input that adds or creates one.
import type { Upload } from '@upshot/contract';
import { X } from 'lucide-react';
import { useRef } from 'react';
import { Badge } from '../../../components/ui/badge.tsx';
import { useTagsQuery } from '../api.ts';
import { useUploadTagActions } from '../hooks/use-tag-actions.ts';
import { TagCombobox } from './tag-combobox.tsx';

export function TagEditor({ upload }: { upload: Upload }) {
  const { data } = useTagsQuery();
  const actions = useUploadTagActions();
  const groupRef = useRef<HTMLDivElement>(null);
  const name = upload.originalFilename;

  // The remove button goes with its badge: the keyboard stays on the card, in the input.
  const focusInput = () => groupRef.current?.querySelector<HTMLInputElement>('input')?.focus();

  return (
    <div
      ref={groupRef}
      role="group"
      aria-label={`Tags of ${name}`}
      className="flex flex-col gap-1.5"
    >
      {upload.tags.length > 0 && (
        <ul aria-label="Tags" className="flex min-w-0 flex-wrap gap-1">
          {upload.tags.map((tag) => (
            <li key={tag.id} className="flex max-w-full min-w-0">
              <Badge
                variant="secondary"
                className="max-w-full min-w-0 gap-0.5 py-0.5 pr-0.5 pl-2 font-normal"
              >
                <span className="truncate" title={tag.name}>
                  {tag.name}
                </span>
                <button
                  type="button"
                  aria-label={`Remove tag ${tag.name} from ${name}`}
                  title="Remove tag"
                  disabled={actions.isBusy}
                  onClick={(event) => {
                    // From the keyboard (no pointer: detail 0), where focus would be lost with the
                    // badge; a tap does not pull up a phone's keyboard.
                    if (event.detail === 0) focusInput();
                    void actions.removeTag(upload, tag);
                  }}
                  className="rounded-sm p-0.5 text-muted-foreground outline-none hover:bg-background/60 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring/50 disabled:opacity-50"
                >
                  <X aria-hidden="true" className="size-3" />
                </button>
              </Badge>
            </li>
          ))}
        </ul>
      )}
      <TagCombobox
        label={`Add tag to ${name}`}
        allTags={data?.tags ?? []}
        onUpload={upload.tags}
        busy={actions.isBusy}
        onAdd={(tag) => void actions.addTag(upload, tag)}
        onCreate={(tagName) => void actions.createAndAddTag(upload, tagName)}
      />
    </div>
  );
}
