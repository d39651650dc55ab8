// The uploads feature's public surface; other modules import from here, never from its internals.
export { uploadKeys, useUploadsQuery, type UploadListParams } from './api.ts';
export { FilterBar } from './components/filter-bar.tsx';
export { SelectionBar } from './components/selection-bar.tsx';
export { UploadDialog } from './components/upload-dialog.tsx';
export { UploadGrid } from './components/upload-grid.tsx';
export {
  UploadsEmpty,
  UploadsFilteredEmpty,
  UploadsLoadError,
  UploadsLoading,
} from './components/upload-states.tsx';
export { VanityUrlDialog } from './components/vanity-url-dialog.tsx';
export { useOpenUpload } from './hooks/use-open-upload.ts';
export { useSelection } from './hooks/use-selection.ts';
export { useUploadActions } from './hooks/use-upload-actions.ts';
export { useUploadFilters } from './hooks/use-upload-filters.ts';
export { FILE_TYPE_LABELS } from './labels.ts';
