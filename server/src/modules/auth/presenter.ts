import type { AuthResponse } from '@upshot/contract';
import type { UserRow } from '../../db/schema.ts';
import { toUserResponse } from '../users/index.ts';

export function toAuthResponse(token: string, user: UserRow): AuthResponse {
  return { token, user: toUserResponse(user) };
}
