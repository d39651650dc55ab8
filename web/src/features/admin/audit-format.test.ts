import { AUDIT_ACTIONS } from '@upshot/contract/constants';
import { describe, expect, it } from 'vitest';
import { actionLabel, detailLines } from './audit-format.ts';

describe('the audit log in words', () => {
  it('names every action the contract has', () => {
    expect(actionLabel('user.password_reset')).toBe('Reset password');
    expect(actionLabel('access_request.approved')).toBe('Approved access request');
    expect(actionLabel('user.token_read')).toBe("Viewed user's API token");
    for (const action of AUDIT_ACTIONS) expect(actionLabel(action)).not.toBe(action);
  });

  it('reads changes as before and after, booleans as yes or no, quotas as sizes', () => {
    expect(
      detailLines({
        isActive: { from: true, to: false },
        diskQuota: { from: 1024, to: 2048 },
        role: { from: 'user', to: 'admin' },
      }),
    ).toEqual(['Active: yes \u2192 no', 'Quota: 1 KB \u2192 2 KB', 'Role: user \u2192 admin']);
  });

  it("names the owner of another user's upload and what changed, without their id", () => {
    expect(
      detailLines({ owner: 'sam', ownerId: 'u1', vanityUrl: { from: null, to: 'holiday' } }),
    ).toEqual(['Owner: sam', 'Custom URL: none \u2192 holiday']);
    expect(actionLabel('upload.deleted')).toBe("Deleted user's upload");
  });

  it("reads a change to another user's link settings", () => {
    expect(actionLabel('upload.link_changed')).toBe("Changed user's link settings");
    expect(
      detailLines({
        owner: 'sam',
        isPublic: { from: true, to: false },
        maxViews: { from: null, to: 5 },
        expiresAt: { from: null, to: null },
        hasPassword: { from: true, to: false },
      }),
    ).toEqual([
      'Owner: sam',
      'Public: yes \u2192 no',
      'View limit: none \u2192 5',
      'Expires: never \u2192 never',
      'Password: yes \u2192 no',
    ]);
  });

  it('leaves ids out and names uploader kinds', () => {
    expect(detailLines({ userId: 'u1', username: 'sam', emailSent: false })).toEqual([
      'Username: sam',
      'Email sent: no',
    ]);
    expect(detailLines({ kind: 'powershell' })).toEqual(['Uploader: PowerShell script']);
  });
});
