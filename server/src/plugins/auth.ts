/**
 * Sets request.auth from `Authorization: Bearer <session token>` or `X-API-Token`. A header
 * that cannot be used (another scheme, a token that is not valid) is ignored, never a reason
 * to refuse a request that carries a valid credential in the other.
 */
import { API_TOKEN_HEADER } from '@upshot/contract';
import type { FastifyInstance } from 'fastify';
import type { Auth, AuthService } from '../modules/auth/index.ts';

export type { Auth };

declare module 'fastify' {
  interface FastifyRequest {
    auth: Auth | null;
  }
}

export function registerAuth(app: FastifyInstance, authService: AuthService): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (bearer) request.auth = await authService.authenticateSession(bearer);
    const apiToken = request.headers[API_TOKEN_HEADER];
    if (!request.auth && typeof apiToken === 'string' && apiToken.length > 0) {
      request.auth = await authService.authenticateApiToken(apiToken);
    }
  });
}
