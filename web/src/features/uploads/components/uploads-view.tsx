// The Uploads screen: the list with its filters and pages, the selection and its batch actions,
// and the dialogs that upload, write a new text, set a custom URL, change a link's settings and
// confirm deletes. Files pasted or dropped anywhere on it join the upload dialog's queue; text
// pasted on it opens New text.
import type { Upload } from '@upshot/contract';
import { CloudUpload, FilePlus2, SearchX } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { LoadError, useLoadFailureToast } from '../../../components/load-error.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { useClampPage } from '../../../lib/use-clamp-page.ts';
import { useUploadsPerPage } from '../../preferences/index.ts';
import { useUploadsQuery } from '../api.ts';
import { useOpenUpload } from '../hooks/use-open-upload.ts';
import { usePageDrop } from '../hooks/use-page-drop.ts';
import { usePagePaste } from '../hooks/use-page-paste.ts';
import { useSelection } from '../hooks/use-selection.ts';
import { useUploadActions } from '../hooks/use-upload-actions.ts';
import { useUploadFilters } from '../hooks/use-upload-filters.ts';
import { useUploadQueue } from '../hooks/use-upload-queue.ts';
import { DropOverlay } from './drop-overlay.tsx';
import { FilterBar } from './filter-bar.tsx';
import { LinkSettingsDialog } from './link-settings-dialog.tsx';
import { NewTextDialog } from './new-text-dialog.tsx';
import { SelectionBar } from './selection-bar.tsx';
import { UploadDialog } from './upload-dialog.tsx';
import { UploadGrid } from './upload-grid.tsx';
import { UploadsEmpty, UploadsFilteredEmpty, UploadsLoading } from './upload-states.tsx';
import { VanityUrlDialog } from './vanity-url-dialog.tsx';

const closed = { upload: null, open: false };

export function UploadsView() {
  const pageSize = useUploadsPerPage();
  const filters = useUploadFilters(pageSize.limit);
  const { params, setPage, replacePage } = filters;
  const query = useUploadsQuery(params, { enabled: pageSize.ready });
  const { data, isPending } = query;
  const { selected, toggle, toggleAll, clear: clearSelection } = useSelection();
  const actions = useUploadActions();
  const openUpload = useOpenUpload();

  const [uploadOpen, setUploadOpen] = useState(false);
  const uploadQueue = useUploadQueue();
  const [newText, setNewText] = useState({ open: false, text: '' });
  // Each dialog keeps its subject while it animates closed, hence a flag beside it.
  const [vanity, setVanity] = useState<{ upload: Upload | null; open: boolean }>(closed);
  const [linkSettings, setLinkSettings] = useState<{ upload: Upload | null; open: boolean }>(
    closed,
  );
  const [toDelete, setToDelete] = useState<{ upload: Upload | null; open: boolean }>(closed);
  const [batchDelete, setBatchDelete] = useState<{ ids: string[]; open: boolean }>({
    ids: [],
    open: false,
  });

  // Files pasted or dropped on the screen join the queue (while a batch is being sent, as
  // pending files for the next); the hooks leave them alone while another dialog is open.
  const queueFiles = (files: File[]) => {
    uploadQueue.addFiles(files);
    setUploadOpen(true);
  };
  usePagePaste({
    onFiles: queueFiles,
    onText: !uploadOpen && ((text) => setNewText({ open: true, text })),
  });
  const dragging = usePageDrop({ onFiles: queueFiles });

  // A 404 under a tag filter is no failure to report: the tag is gone, and the filter bar drops it.
  useLoadFailureToast(
    query,
    'Failed to load uploads',
    (error) => params.tag !== '' && isApiError(error, 404),
  );

  // Another filter or page is another list: nothing on it is ticked yet.
  useEffect(() => {
    clearSelection();
  }, [params, clearSelection]);

  const uploads = data?.uploads ?? [];
  // Deleting the last cards of the last page leaves it empty: step back to the new last page.
  const pageCount = useClampPage(
    data && { page: data.page, limit: data.limit, total: data.total, rows: uploads.length },
    replacePage,
  );
  const listedIds = uploads.map((upload) => upload.id);
  const selectedUploads = uploads.filter((upload) => selected.has(upload.id));
  const selectedIds = selectedUploads.map((upload) => upload.id);
  const allSelected = listedIds.length > 0 && selectedIds.length === listedIds.length;

  const confirmDeleteOne = async () => {
    const { upload } = toDelete;
    setToDelete((current) => ({ ...current, open: false }));
    if (upload && (await actions.deleteUpload(upload))) toggle(upload.id, false);
  };

  const setPrivacyOfSelected = async (isPublic: boolean) => {
    if (await actions.setPrivacyOf(selectedIds, isPublic)) clearSelection();
  };

  const confirmDeleteSelected = async () => {
    setBatchDelete((current) => ({ ...current, open: false }));
    if (await actions.deleteUploads(batchDelete.ids)) clearSelection();
  };

  let content;
  if (isPending) {
    content = <UploadsLoading />;
  } else if (!data) {
    content = (
      <LoadError
        onRetry={() => void query.refetch()}
        icon={<SearchX aria-hidden="true" />}
        className="min-h-72 bg-card/30"
      >
        Your uploads could not be loaded.
      </LoadError>
    );
  } else if (uploads.length === 0) {
    content = filters.isFiltered ? (
      <UploadsFilteredEmpty />
    ) : (
      <UploadsEmpty onUpload={() => setUploadOpen(true)} />
    );
  } else {
    content = (
      <>
        <UploadGrid
          uploads={uploads}
          selected={selected}
          onToggle={toggle}
          onOpen={(upload) => void openUpload(upload)}
          onCopyUrl={(upload) => void actions.copyUrl(upload)}
          onSetPrivacy={(upload, isPublic) => void actions.setPrivacy(upload, isPublic)}
          onLinkSettings={(upload) => setLinkSettings({ upload, open: true })}
          onSetCustomUrl={(upload) => setVanity({ upload, open: true })}
          onDelete={(upload) => setToDelete({ upload, open: true })}
        />
        <Pagination page={data.page} pageCount={pageCount} onPageChange={setPage} />
      </>
    );
  }

  return (
    <div className={selectedIds.length > 0 ? 'flex flex-col gap-6 pb-20' : 'flex flex-col gap-6'}>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <PageHeader
          title="Uploads"
          description={
            data && data.total > 0
              ? `${data.total} ${data.total === 1 ? 'file' : 'files'}`
              : 'Your files and their short links'
          }
        />
        <div className="flex flex-wrap items-center gap-x-4 gap-y-3">
          <FormField
            layout="check"
            label="Select All"
            className="items-center gap-2"
            labelClassName="cursor-pointer"
          >
            <Checkbox
              checked={allSelected ? true : selectedIds.length > 0 ? 'indeterminate' : false}
              onCheckedChange={() => toggleAll(listedIds)}
              disabled={listedIds.length === 0}
            />
          </FormField>
          <div className="flex items-center gap-2">
            <Button variant="outline" onClick={() => setNewText({ open: true, text: '' })}>
              <FilePlus2 aria-hidden="true" />
              New text
            </Button>
            <Button onClick={() => setUploadOpen(true)}>
              <CloudUpload aria-hidden="true" />
              Upload Files
            </Button>
          </div>
        </div>
      </div>

      <FilterBar filters={filters} />

      {content}

      <SelectionBar
        uploads={selectedUploads}
        onDelete={() => setBatchDelete({ ids: selectedIds, open: true })}
        onSetPrivacy={(isPublic) => void setPrivacyOfSelected(isPublic)}
        onClear={clearSelection}
        disabled={actions.isBatchBusy}
      />

      <UploadDialog open={uploadOpen} onOpenChange={setUploadOpen} queue={uploadQueue} />

      <NewTextDialog
        open={newText.open}
        initialText={newText.text}
        onOpenChange={(open) => setNewText((current) => ({ ...current, open }))}
      />

      <DropOverlay visible={dragging} />

      <VanityUrlDialog
        upload={vanity.upload}
        open={vanity.open}
        onOpenChange={(open) => setVanity((current) => ({ ...current, open }))}
        onSave={actions.setVanityUrl}
      />

      <LinkSettingsDialog
        upload={linkSettings.upload}
        open={linkSettings.open}
        onOpenChange={(open) => setLinkSettings((current) => ({ ...current, open }))}
        onSave={actions.saveLinkSettings}
      />

      <ConfirmDialog
        open={toDelete.open}
        onOpenChange={(open) => setToDelete((current) => ({ ...current, open }))}
        title="Delete upload"
        description={`Delete "${toDelete.upload?.originalFilename ?? ''}"? This cannot be undone.`}
        onConfirm={() => void confirmDeleteOne()}
      />

      <ConfirmDialog
        open={batchDelete.open}
        onOpenChange={(open) => setBatchDelete((current) => ({ ...current, open }))}
        title="Delete uploads"
        description={`Delete ${batchDelete.ids.length} upload(s)? This cannot be undone.`}
        onConfirm={() => void confirmDeleteSelected()}
      />
    </div>
  );
}
