// Rename a tag in place (Enter saves, Escape cancels) or delete it after confirming.
import type { TagSummary } from '@upshot/contract';
import { TAG_NAME_MAX } from '@upshot/contract/constants';
import { Check, Pencil, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { useTagsQuery } from '../api.ts';
import { useManageTagActions } from '../hooks/use-tag-actions.ts';

type ManageTagsDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called once a tag is gone (the filter may be showing it). */
  onDeleted: (tag: TagSummary) => void;
};

type Editing = { id: string; name: string };

export function ManageTagsDialog({ open, onOpenChange, onDeleted }: ManageTagsDialogProps) {
  const { data, isPending, isError, refetch } = useTagsQuery();
  const actions = useManageTagActions();
  const [editing, setEditing] = useState<Editing | null>(null);
  // Kept while the confirmation animates closed, hence the flag beside it.
  const [toDelete, setToDelete] = useState<{ tag: TagSummary | null; open: boolean }>({
    tag: null,
    open: false,
  });
  const tags = data?.tags ?? [];

  const save = async (tag: TagSummary) => {
    if (!editing || actions.isRenaming) return;
    const name = editing.name.trim();
    if (name === '') return;
    if (name === tag.name) {
      setEditing(null);
      return;
    }
    // On failure the field stays open with what was typed, to correct it.
    if (await actions.renameTag(tag, name)) setEditing(null);
  };

  const confirmDelete = async () => {
    const { tag } = toDelete;
    setToDelete((current) => ({ ...current, open: false }));
    if (tag && (await actions.deleteTag(tag))) onDeleted(tag);
  };

  let body;
  if (isPending) {
    body = <p className="text-sm text-muted-foreground">Loading...</p>;
  } else if (isError && !data) {
    body = <LoadError onRetry={() => void refetch()}>The tags could not be loaded.</LoadError>;
  } else if (tags.length === 0) {
    body = (
      <p className="text-sm text-muted-foreground">
        No tags yet. Add one from the tag field of an upload.
      </p>
    );
  } else {
    body = (
      <ul aria-label="Tags" className="-mx-2 flex max-h-80 flex-col gap-0.5 overflow-y-auto px-2">
        {tags.map((tag) => (
          <li key={tag.id} className="flex min-h-10 min-w-0 items-center gap-2">
            {editing?.id === tag.id ? (
              <form
                className="flex min-w-0 flex-1 items-center gap-1"
                onSubmit={(event) => {
                  event.preventDefault();
                  void save(tag);
                }}
              >
                <Input
                  aria-label={`New name for tag ${tag.name}`}
                  value={editing.name}
                  maxLength={TAG_NAME_MAX * 2} // UTF-16 units; the name's limit counts characters
                  autoFocus
                  onChange={(event) => setEditing({ id: tag.id, name: event.target.value })}
                  className="h-8 flex-1"
                />
                <Button
                  type="submit"
                  variant="ghost"
                  size="icon"
                  className="size-8"
                  aria-label="Save name"
                  title="Save"
                  disabled={actions.isRenaming || editing.name.trim() === ''}
                >
                  <Check aria-hidden="true" />
                </Button>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  className="size-8"
                  aria-label="Cancel rename"
                  title="Cancel"
                  onClick={() => setEditing(null)}
                >
                  <X aria-hidden="true" />
                </Button>
              </form>
            ) : (
              <>
                <span className="min-w-0 flex-1 truncate text-sm" title={tag.name}>
                  {tag.name}
                </span>
                <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
                  {tag.uploadCount === 1 ? '1 upload' : `${tag.uploadCount} uploads`}
                </span>
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-8 text-muted-foreground hover:text-foreground"
                  aria-label={`Rename tag ${tag.name}`}
                  title="Rename"
                  onClick={() => setEditing({ id: tag.id, name: tag.name })}
                >
                  <Pencil aria-hidden="true" />
                </Button>
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-8 text-muted-foreground hover:bg-destructive/15 hover:text-destructive"
                  aria-label={`Delete tag ${tag.name}`}
                  title="Delete"
                  disabled={actions.isDeleting}
                  onClick={() => setToDelete({ tag, open: true })}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </>
            )}
          </li>
        ))}
      </ul>
    );
  }

  return (
    <>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          if (!next) setEditing(null);
          onOpenChange(next);
        }}
      >
        <DialogContent
          className="sm:max-w-md"
          onEscapeKeyDown={(event) => {
            // Escape while renaming cancels the rename, not the dialog.
            if (editing) {
              event.preventDefault();
              setEditing(null);
            }
          }}
        >
          <DialogHeader>
            <DialogTitle>Manage tags</DialogTitle>
            <DialogDescription>
              Rename or delete your tags. Deleting a tag takes it off its uploads; the files stay.
            </DialogDescription>
          </DialogHeader>
          {body}
        </DialogContent>
      </Dialog>

      <ConfirmDialog
        open={toDelete.open}
        onOpenChange={(next) => setToDelete((current) => ({ ...current, open: next }))}
        title="Delete tag"
        description={`Delete tag "${toDelete.tag?.name ?? ''}"? It will be removed from ${toDelete.tag?.uploadCount ?? 0} upload(s).`}
        onConfirm={() => void confirmDelete()}
      />
    </>
  );
}
