import { describe, expect, it } from 'vitest';
import { canAdministerUsers, canManageAccount } from './policy.ts';

const user = { id: 'u1', role: 'user' as const };
const admin = { id: 'a1', role: 'admin' as const };

describe('canManageAccount', () => {
  it('lets a user manage their own account, and no one else’s', () => {
    expect(canManageAccount(user, 'u1')).toBe(true);
    expect(canManageAccount(user, 'u2')).toBe(false);
    expect(canManageAccount(user, 'a1')).toBe(false);
  });

  it('lets an administrator manage any account, their own too', () => {
    expect(canManageAccount(admin, 'u1')).toBe(true);
    expect(canManageAccount(admin, 'a1')).toBe(true);
  });
});

describe('canAdministerUsers', () => {
  it('is for administrators only', () => {
    expect(canAdministerUsers(admin)).toBe(true);
    expect(canAdministerUsers(user)).toBe(false);
  });
});
