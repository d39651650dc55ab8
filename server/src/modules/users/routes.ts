import { API } from '@upshot/contract';
import { route } from '../../plugins/route-table.ts';
import { toUserWithToken } from './presenter.ts';
import type { UsersService } from './service.ts';

export function usersRoutes(deps: { users: UsersService }) {
  const { users } = deps;
  return [
    // Answers carrying a token are never stored by a cache.
    route(API.getUser, async ({ auth, params, reply }) => {
      reply.header('cache-control', 'no-store');
      const row = await users.getAsViewer(auth.user, params.id);
      return toUserWithToken(row, users.revealApiToken(row));
    }),

    route(API.regenerateApiToken, async ({ auth, params, reply }) => {
      reply.header('cache-control', 'no-store');
      return { apiToken: await users.regenerateApiToken(auth.user, params.id) };
    }),
  ];
}
