/**
 * Sets request.auth from `Authorization: Bearer <session token>` or `X-API-Token`, in an
 * `onRequest` hook, before any route's access check. A header that cannot be used (another
 * scheme, a token that is not valid) is ignored, never a reason to refuse a request that
 * carries a valid credential in the other.
 */
import { API_TOKEN_HEADER } from '@upshot/contract';
import type { FastifyInstance } from 'fastify';
import type { Auth } from '../lib/caller.ts';

export type { Auth };

/** How credentials are checked (the auth module's service). */
export type Authenticator = {
  authenticateSession(token: string): Promise<Auth | null>;
  authenticateApiToken(token: string): Promise<Auth | null>;
};

declare module 'fastify' {
  interface FastifyRequest {
    auth: Auth | null;
  }
}

/**
 * A request without credentials (every public link), or to a route that ignores them (health,
 * metrics), costs no database call.
 */
export function registerAuth(app: FastifyInstance, authenticator: Authenticator): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.endpoint?.ignoresCredentials) return;
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const header = request.headers[API_TOKEN_HEADER];
    const apiToken = typeof header === 'string' && header.length > 0 ? header : undefined;
    if (bearer) request.auth = await authenticator.authenticateSession(bearer);
    if (!request.auth && apiToken)
      request.auth = await authenticator.authenticateApiToken(apiToken);
  });
}
