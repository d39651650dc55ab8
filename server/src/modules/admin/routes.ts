import { API } from '@upshot/contract';
import { route } from '../../plugins/route-table.ts';
import { toAdminUser, type UsersService } from '../users/index.ts';
import { toAccessRequest } from './presenter.ts';
import { ACCESS_REQUEST_SUBMITTED, type AdminService } from './service.ts';

export function adminRoutes(deps: { admin: AdminService; users: UsersService }) {
  const { admin, users } = deps;
  const paged = (query: { page: number; limit: number }, total: number) => ({
    total,
    page: query.page,
    limit: query.limit,
  });
  return [
    // --- users ---
    route(API.listUsers, async ({ query }) => {
      const { rows, total } = await users.list(
        {
          search: query.search || undefined,
          role: query.role || undefined,
          active: query.status ? query.status === 'active' : undefined,
        },
        { offset: (query.page - 1) * query.limit, limit: query.limit },
      );
      return { users: rows.map(toAdminUser), ...paged(query, total) };
    }),

    route(API.createUser, async ({ auth, body, reply }) => {
      reply.header('cache-control', 'no-store');
      const { user, tempPassword, invitation, emailSent } = await admin.createUser(auth.user, body);
      return {
        user: toAdminUser(user),
        tempPassword,
        inviteCode: invitation?.code ?? null,
        inviteUrl: invitation?.url ?? null,
        emailSent,
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

    route(API.sendInvite, async ({ auth, body }) => {
      await admin.sendInvite(auth.user, body);
      return { emailSent: true as const };
    }),

    // --- access requests ---
    route(API.requestAccess, async ({ body, request }) => {
      await admin.requestAccess(body, request.ip);
      return { message: ACCESS_REQUEST_SUBMITTED };
    }),

    route(API.listAccessRequests, async ({ query }) => {
      const { rows, total } = await admin.listRequests(query);
      return { requests: rows.map(toAccessRequest), ...paged(query, total) };
    }),

    route(API.decideAccessRequest, async ({ auth, params, body, reply }) => {
      reply.header('cache-control', 'no-store');
      const result = await admin.decideRequest(auth.user, params.id, body.status);
      return {
        request: toAccessRequest(result.request),
        user: result.user ? toAdminUser(result.user) : null,
        inviteUrl: result.inviteUrl,
        emailSent: result.emailSent,
      };
    }),

    route(API.deleteAccessRequest, async ({ auth, params }) => {
      await admin.deleteRequest(auth.user, params.id);
      return undefined;
    }),
  ];
}
