// The admin feature's public surface; other modules import from here, never from its internals.
export { AuditLogTab } from './components/audit-log-tab.tsx';
export { UsersTab } from './components/users-tab.tsx';
