import { API } from '@upshot/contract';
import { route } from '../../plugins/route-table.ts';
import { toAdminUser } from '../users/index.ts';
import { toAccessRequest } from './presenter.ts';
import { ACCESS_REQUEST_SUBMITTED, type AccessRequestsService } from './service.ts';

export function accessRequestsRoutes(deps: { requests: AccessRequestsService }) {
  const { requests } = deps;
  return [
    route(API.requestAccess, async ({ body, request }) => {
      await requests.requestAccess(body, request.ip);
      return { message: ACCESS_REQUEST_SUBMITTED };
    }),

    route(API.listAccessRequests, async ({ query }) => {
      const { rows, ...page } = await requests.listRequests(query);
      return { requests: rows.map(toAccessRequest), ...page };
    }),

    route(API.decideAccessRequest, async ({ auth, params, body, reply }) => {
      reply.header('cache-control', 'no-store');
      const result = await requests.decideRequest(auth.user, params.id, body.status);
      return {
        request: toAccessRequest(result.request),
        user: result.user ? toAdminUser(result.user) : null,
        inviteUrl: result.inviteUrl,
        emailSent: result.emailSent,
      };
    }),

    route(API.deleteAccessRequest, async ({ auth, params }) => {
      await requests.deleteRequest(auth.user, params.id);
      return undefined;
    }),
  ];
}
