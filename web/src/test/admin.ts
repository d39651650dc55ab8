// The Admin screen's tests share who is signed in (ada, an admin), the users they see, and the
// answers every Admin screen needs; each test adds the answers its point needs.
import type { AdminUser, ListUsersResponse } from '@upshot/contract';
import { makeAdminUser, makeUser, makeUserStats } from './fixtures.ts';
import { mockApi, signIn, type Answers } from './mock-api.ts';
import { renderApp } from './render-app.tsx';

export const me = makeUser({
  id: 'admin1',
  username: 'ada',
  email: 'ada@example.com',
  role: 'admin',
});
export const ada = makeAdminUser({ ...me, uploadCount: 3, diskUsed: 3 * 1024 ** 2 });
export const bob = makeAdminUser({
  id: 'u2',
  username: 'bob',
  email: 'bob@example.com',
  uploadCount: 1,
});
export const carol = makeAdminUser({
  id: 'u3',
  username: 'carol',
  email: 'carol@example.com',
  isActive: false,
});

/** The users list's answer: every row on one page unless said otherwise. */
export function usersPage(
  users: AdminUser[],
  overrides: Partial<ListUsersResponse> = {},
): ListUsersResponse {
  return { users, total: users.length, page: 1, limit: 20, ...overrides };
}

/** The app at `path`, signed in as ada, listing ada, bob and carol unless `answers` say else. */
export function renderAdmin(answers: Answers = {}, path = '/admin') {
  const network = mockApi({
    ...signIn(me),
    stats: makeUserStats(),
    listUsers: usersPage([ada, bob, carol]),
    ...answers,
  });
  return { ...renderApp(path), ...network };
}
