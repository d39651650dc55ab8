import { API } from '@upshot/contract';
import { route } from '../../plugins/route-table.ts';
import { toUserWithToken } from './presenter.ts';
import type { AuditService } from '../audit/index.ts';
import type { UsersService } from './service.ts';

export function usersRoutes(deps: { users: UsersService; audit: AuditService }) {
  const { users, audit } = deps;
  return [
    // Answers carrying a token are never stored by a cache.
    route(API.getUser, async ({ auth, params, reply }) => {
      reply.header('cache-control', 'no-store');
      const row = await users.getAsViewer(auth.user, params.id);
      await audit.onOtherUser(auth.user, row, 'user.token_read');
      return toUserWithToken(row, users.revealApiToken(row));
    }),

    route(API.regenerateApiToken, async ({ auth, params, reply }) => {
      reply.header('cache-control', 'no-store');
      const apiToken = await users.regenerateApiToken(auth.user, params.id);
      await audit.onOtherUser(auth.user, await users.get(params.id), 'user.token_regenerated');
      return { apiToken };
    }),
  ];
}
