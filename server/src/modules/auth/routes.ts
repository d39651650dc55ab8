import { LoginRequest, type AuthResponse, type User } from '@upshot/contract';
import type { FastifyInstance } from 'fastify';
import { parse } from '../../lib/validate.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { toUserResponse } from '../users/presenter.ts';
import type { AuthService } from './service.ts';

export function authRoutes(app: FastifyInstance, deps: { authService: AuthService }): void {
  const { authService } = deps;

  app.post('/api/auth/login', async (request): Promise<AuthResponse> => {
    const body = parse(LoginRequest, request.body);
    const { token, user } = await authService.login({
      ...body,
      ip: request.ip,
      userAgent: request.headers['user-agent'],
    });
    return { token, user: toUserResponse(user) };
  });

  app.post('/api/auth/logout', async (request, reply) => {
    const auth = requireAuth(request);
    if (auth.sessionId) await authService.logout(auth.sessionId);
    return reply.status(204).send();
  });

  app.get('/api/auth/me', async (request): Promise<User> => {
    return toUserResponse(requireAuth(request).user);
  });
}
