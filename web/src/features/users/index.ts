// The users feature's public surface; other modules import from here, never from its internals.
export { useUserQuery, type UploaderKind } from './api.ts';
export { AccountInfoCard, StorageUsageCard } from './components/account-cards.tsx';
export { ApiTokenCard } from './components/api-token-card.tsx';
export { ChangePasswordCard } from './components/change-password-card.tsx';
export { DesktopUploadersCard } from './components/desktop-uploaders-card.tsx';
export { ProfileOverview } from './components/profile-overview.tsx';
export { useSaveUploader } from './hooks/use-save-uploader.ts';
export { storageUsage } from './rules.ts';
