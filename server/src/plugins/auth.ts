/** Sets request.auth from `Authorization: Bearer` or `X-API-Token`; guards for routes. */
import { API_TOKEN_HEADER } from '@upshot/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../errors.ts';
import type { Authenticated, AuthService } from '../modules/auth/service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: Authenticated | null;
  }
}

export function registerAuth(app: FastifyInstance, authService: AuthService): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (header) {
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      request.auth = match?.[1] ? await authService.authenticateSession(match[1]) : null;
      return;
    }
    const apiToken = request.headers[API_TOKEN_HEADER];
    if (typeof apiToken === 'string' && apiToken.length > 0) {
      request.auth = await authService.authenticateApiToken(apiToken);
    }
  });
}

export function requireAuth(request: FastifyRequest): Authenticated {
  if (!request.auth) throw new UnauthorizedError();
  return request.auth;
}
