// The uploads feature's public surface; other modules import from here, never from its internals.
export { UploadsView } from './components/uploads-view.tsx';
export { useOpenUpload } from './hooks/use-open-upload.ts';
export { FILE_TYPE_LABELS } from './labels.ts';
export { opensSigned } from './link-status.ts';
