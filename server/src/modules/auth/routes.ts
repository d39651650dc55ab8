import { API } from '@upshot/contract';
import { route } from '../../plugins/route-table.ts';
import { toUserResponse, type UsersService } from '../users/index.ts';
import { toAuthResponse } from './presenter.ts';
import type { AuthService } from './service.ts';

export function authRoutes(deps: { auth: AuthService; users: UsersService }) {
  const { auth, users } = deps;
  return [
    route(API.login, async ({ body, request }) => {
      const { token, userId } = await auth.login({
        ...body,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      return toAuthResponse(token, await users.get(userId));
    }),

    route(API.logout, async ({ auth: caller }) => {
      await auth.logout(caller);
      return undefined;
    }),

    route(API.changePassword, async ({ auth: caller, params, body }) => {
      await auth.changePassword(caller, params.id, body);
      return undefined;
    }),

    route(API.register, async ({ body, request }) => {
      const { token, user } = await auth.register({
        ...body,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      return toAuthResponse(token, user);
    }),

    route(API.inviteInfo, async ({ params, request, reply }) => {
      reply.header('cache-control', 'no-store');
      return auth.inviteInfo(params.code, request.ip);
    }),

    route(API.me, async ({ auth: caller }) => toUserResponse(await users.get(caller.user.id))),
  ];
}
