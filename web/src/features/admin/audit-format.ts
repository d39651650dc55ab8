// How the audit log reads: an action's name and its details in words, for the Audit Log tab.
import type { AuditAction, AuditEntry } from '@upshot/contract';
import { formatBytes, formatDate } from '../../lib/format.ts';

const ACTIONS: Record<AuditAction, string> = {
  'user.created': 'Created user',
  'user.updated': 'Changed user',
  'user.deleted': 'Deleted user',
  'user.password_reset': 'Reset password',
  'user.invite_sent': 'Sent invite email',
  'user.config_downloaded': 'Downloaded desktop uploader',
  'user.token_read': "Viewed user's API token",
  'user.token_regenerated': "Regenerated user's API token",
  'access_request.approved': 'Approved access request',
  'access_request.rejected': 'Rejected access request',
  'access_request.deleted': 'Deleted access request',
  'upload.read': "Opened user's private file",
  'upload.link_signed': "Made a signed link to user's file",
  'upload.vanity_changed': "Changed user's custom URL",
  'upload.deleted': "Deleted user's upload",
  'upload.link_changed': "Changed user's link settings",
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
  kind: 'Uploader',
  status: 'Status',
  owner: 'Owner',
  vanityUrl: 'Custom URL',
  expiresAt: 'Expires',
  isPublic: 'Public',
  maxViews: 'View limit',
  hasPassword: 'Password',
  password: 'Password',
};

/** Ids mean nothing to a reader; the label or a name beside them says who it was. */
const HIDDEN_KEYS = new Set(['userId', 'ownerId']);

const UPLOADER_KINDS: Record<string, string> = {
  sharex: 'ShareX',
  bash: 'bash script',
  powershell: 'PowerShell script',
};

function valueText(key: string, value: unknown): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (key === 'diskQuota' && typeof value === 'number') return formatBytes(value);
  if (key === 'vanityUrl' && value === null) return 'none';
  if (key === 'expiresAt' && typeof value === 'string') return formatDate(value);
  if (key === 'expiresAt' && value === null) return 'never';
  if (key === 'maxViews' && value === null) return 'none';
  if (key === 'kind' && typeof value === 'string') return UPLOADER_KINDS[value] ?? value;
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
