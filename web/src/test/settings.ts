// The Settings and Profile tests share who is signed in (alice, with her API token) and the
// answers those screens need; each test adds the answers its point needs.
import type { User, UserWithToken } from '@upshot/contract';
import { makeUser, makeUserStats } from './fixtures.ts';
import { mockApi, signIn, type Answers } from './mock-api.ts';
import { renderApp } from './render-app.tsx';

export const FIRST_TOKEN = 'upt_first-token-abcdefghijklmnopqrstuvwxyz-1234';

export const alice: UserWithToken = { ...makeUser(), apiToken: FIRST_TOKEN };

/** The user as the session knows them: the token only shows in GET /api/users/:id. */
function sessionUser(me: UserWithToken): User {
  const { apiToken, ...user } = me;
  void apiToken;
  return user;
}

/** The app at `path`, signed in as `me` (alice), answering as `answers` say. */
export function renderSettings(
  answers: Answers = {},
  path = '/settings',
  me: UserWithToken = alice,
) {
  const network = mockApi({
    ...signIn(sessionUser(me)),
    getUser: me,
    stats: makeUserStats(),
    ...answers,
  });
  return { ...renderApp(path), ...network };
}
