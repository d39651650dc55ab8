/**
 * Sets request.auth from `Authorization: Bearer <session token>` or `X-API-Token`. A header
 * that cannot be used (another scheme, a token that is not valid) is ignored, never a reason
 * to refuse a request that carries a valid credential in the other.
 */
import { API_TOKEN_HEADER } from '@upshot/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Auth, AuthService } from '../modules/auth/index.ts';
import type { RequestStep } from './request-steps.ts';

export type { Auth };

declare module 'fastify' {
  interface FastifyRequest {
    auth: Auth | null;
  }
}

/**
 * Declares request.auth and gives the step that sets it. A request without credentials (every
 * public link), or to a route that ignores them (health, metrics), returns at once, costing no
 * promise and no database call.
 */
export function authStep(app: FastifyInstance, authService: AuthService): RequestStep {
  app.decorateRequest('auth', null);
  async function authenticate(request: FastifyRequest, bearer?: string, apiToken?: string) {
    if (bearer) request.auth = await authService.authenticateSession(bearer);
    if (!request.auth && apiToken) request.auth = await authService.authenticateApiToken(apiToken);
  }
  return (request, _reply, route) => {
    if (route.endpoint?.ignoresCredentials) return;
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const header = request.headers[API_TOKEN_HEADER];
    const apiToken = typeof header === 'string' && header.length > 0 ? header : undefined;
    if (!bearer && !apiToken) return;
    return authenticate(request, bearer, apiToken);
  };
}
