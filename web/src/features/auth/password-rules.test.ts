import { describe, expect, it } from 'vitest';
import { checkNewPassword } from './password-rules.ts';

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
