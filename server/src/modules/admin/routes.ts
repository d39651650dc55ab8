import { API } from '@upshot/contract';
import { route } from '../../plugins/route-table.ts';
import { toAdminUser, type UsersService } from '../users/index.ts';
import type { AdminService } from './service.ts';

export function adminRoutes(deps: { admin: AdminService; users: UsersService }) {
  const { admin, users } = deps;
  return [
    route(API.listUsers, async ({ query }) => {
      const { rows, total } = await users.list(
        {
          search: query.search || undefined,
          role: query.role || undefined,
          active: query.status ? query.status === 'active' : undefined,
        },
        { offset: (query.page - 1) * query.limit, limit: query.limit },
      );
      return { users: rows.map(toAdminUser), total, page: query.page, limit: query.limit };
    }),

    route(API.createUser, async ({ auth, body, reply }) => {
      reply.header('cache-control', 'no-store');
      const { user, tempPassword, invitation } = await admin.createUser(auth.user, body);
      return {
        user: toAdminUser(user),
        tempPassword,
        inviteCode: invitation?.code ?? null,
        inviteUrl: invitation?.url ?? null,
        // Email is not configured: the admin hands the credentials over.
        emailSent: false,
      };
    }),

    route(API.updateUser, async ({ auth, params, body }) =>
      toAdminUser(await admin.updateUser(auth.user, params.id, body)),
    ),

    route(API.deleteUser, async ({ auth, params }) => {
      await admin.deleteUser(auth.user, params.id);
      return undefined;
    }),

    route(API.resetPassword, async ({ auth, params, reply }) => {
      reply.header('cache-control', 'no-store');
      return { tempPassword: await admin.resetPassword(auth.user, params.id) };
    }),
  ];
}
