// The access-requests feature's public surface; other modules import from here, never from its
// internals.
export { AccessRequestsTab } from './components/access-requests-tab.tsx';
export { RequestAccessForm, RequestSubmitted } from './components/request-access-form.tsx';
