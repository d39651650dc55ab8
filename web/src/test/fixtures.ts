import type { User } from '@upshot/contract';

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 'u1',
    username: 'alice',
    email: 'alice@example.com',
    role: 'user',
    isActive: true,
    diskUsed: 0,
    diskQuota: 10 * 1024 ** 3,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}
