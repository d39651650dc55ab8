import { z } from 'zod';
import { Email, User } from './users.ts';

export const LoginRequest = z.object({
  email: Email,
  password: z.string().min(1, { message: 'Password is required' }).max(1024),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const AuthResponse = z.object({ token: z.string(), user: User });
export type AuthResponse = z.infer<typeof AuthResponse>;

/** Header a desktop client (ShareX, scripts) sends its personal API token in. */
export const API_TOKEN_HEADER = 'x-api-token';

/** localStorage key the web app keeps its session token under. */
export const AUTH_TOKEN_STORAGE_KEY = 'auth_token';
