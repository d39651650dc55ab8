// How the audit log reads: an action's name and its details in words, for the Audit Log tab.
import type { AuditAction, AuditEntry } from '@upshot/contract';
import { formatBytes } from '../../lib/format.ts';

const ACTIONS: Record<AuditAction, string> = {
  'user.created': 'Created user',
  'user.updated': 'Changed user',
  'user.deleted': 'Deleted user',
  'user.password_reset': 'Reset password',
  'user.invite_sent': 'Sent invite email',
  'user.config_downloaded': 'Downloaded uploader config',
  'user.token_read': "Viewed user's API token",
  'user.token_regenerated': "Regenerated user's API token",
  'access_request.approved': 'Approved access request',
  'access_request.rejected': 'Rejected access request',
  'access_request.deleted': 'Deleted access request',
};

/** The action in words. */
export function actionLabel(action: AuditAction): string {
  return ACTIONS[action];
}

const KEYS: Record<string, string> = {
  isActive: 'Active',
  role: 'Role',
  diskQuota: 'Quota',
  username: 'Username',
  email: 'Email',
  invited: 'Invited',
  emailSent: 'Email sent',
  kind: 'Config',
  status: 'Status',
};

/** Ids mean nothing to a reader; the label beside them says who it was. */
const HIDDEN_KEYS = new Set(['userId']);

const CONFIG_KINDS: Record<string, string> = {
  sharex: 'ShareX',
  bash: 'bash script',
  powershell: 'PowerShell script',
};

function valueText(key: string, value: unknown): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (key === 'diskQuota' && typeof value === 'number') return formatBytes(value);
  if (key === 'kind' && typeof value === 'string') return CONFIG_KINDS[value] ?? value;
  if (value === null || value === undefined) return '-';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function isChange(value: unknown): value is { from: unknown; to: unknown } {
  return typeof value === 'object' && value !== null && 'from' in value && 'to' in value;
}

/** Each detail as "Key: value", a change as "Key: before → after". */
export function detailLines(details: AuditEntry['details']): string[] {
  return Object.entries(details)
    .filter(([key]) => !HIDDEN_KEYS.has(key))
    .map(([key, value]) => {
      const label = KEYS[key] ?? key;
      if (isChange(value)) {
        return `${label}: ${valueText(key, value.from)} \u2192 ${valueText(key, value.to)}`;
      }
      return `${label}: ${valueText(key, value)}`;
    });
}
