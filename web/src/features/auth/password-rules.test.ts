import { describe, expect, it } from 'vitest';
import { checkNewPassword, checkPasswordChange } from './password-rules.ts';

describe('checkNewPassword', () => {
  it('asks for at least 8 characters, in the brief words', () => {
    expect(checkNewPassword('1234567', '1234567')).toEqual({
      password: 'Password must be at least 8 characters',
    });
  });

  it('asks for a matching confirmation', () => {
    expect(checkNewPassword('12345678', '12345679')).toEqual({
      confirm: 'New passwords do not match',
    });
  });

  it('accepts 8 characters confirmed', () => {
    expect(checkNewPassword('12345678', '12345678')).toEqual({});
  });
});

describe('checkPasswordChange', () => {
  const form = (current: string, password: string, confirm = password) => ({
    current,
    password,
    confirm,
  });

  it('accepts a current password and a matching new one of at least 8 characters', () => {
    expect(checkPasswordChange(form('x', '12345678'))).toEqual({});
  });

  it('asks for the current password, beside the new password checks', () => {
    expect(checkPasswordChange(form('', '12345678'))).toEqual({
      current: 'Current password is required',
    });
    expect(checkPasswordChange(form('', '1234567'))).toEqual({
      current: 'Current password is required',
      password: 'Password must be at least 8 characters',
    });
  });

  it("says 'New passwords do not match' when the confirmation differs", () => {
    expect(checkPasswordChange(form('x', '12345678', '12345679'))).toEqual({
      confirm: 'New passwords do not match',
    });
  });
});
