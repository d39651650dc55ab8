import { API } from '@upshot/contract';
import { route } from '../../plugins/route-table.ts';
import type { UserManagement } from './management.ts';
import { toAdminUser, toUserWithToken } from './presenter.ts';
import type { UsersService } from './service.ts';

export function usersRoutes(deps: { users: UsersService; management: UserManagement }) {
  const { users, management } = deps;
  return [
    // Answers carrying a token or a password are never stored by a cache.
    route(API.getUser, async ({ auth, params, reply }) => {
      reply.header('cache-control', 'no-store');
      const { row, apiToken } = await users.readWithToken(auth.user, params.id);
      return toUserWithToken(row, apiToken);
    }),

    route(API.regenerateApiToken, async ({ auth, params, reply }) => {
      reply.header('cache-control', 'no-store');
      return { apiToken: await users.regenerateApiToken(auth.user, params.id) };
    }),

    // --- administrators ---
    route(API.listUsers, async ({ auth, query }) => {
      const { rows, ...page } = await management.list(auth.user, query);
      return { users: rows.map(toAdminUser), ...page };
    }),

    route(API.createUser, async ({ auth, body, reply }) => {
      reply.header('cache-control', 'no-store');
      const { user, tempPassword, invitation, emailSent } = await management.create(
        auth.user,
        body,
      );
      return {
        user: toAdminUser(user),
        tempPassword,
        inviteCode: invitation?.code ?? null,
        inviteUrl: invitation?.url ?? null,
        emailSent,
      };
    }),

    route(API.updateUser, async ({ auth, params, body }) =>
      toAdminUser(await management.update(auth.user, params.id, body)),
    ),

    route(API.deleteUser, async ({ auth, params }) => {
      await management.delete(auth.user, params.id);
      return undefined;
    }),

    route(API.resetPassword, async ({ auth, params, reply }) => {
      reply.header('cache-control', 'no-store');
      return { tempPassword: await management.resetPassword(auth.user, params.id) };
    }),

    route(API.sendInvite, async ({ auth, body }) => {
      await management.sendCredentials(auth.user, body);
      return { emailSent: true as const };
    }),
  ];
}
