import { z } from 'zod';
import { Email, User } from './users.ts';

export const LoginRequest = z.object({
  email: Email,
  // Passwords are hashed, never stored or searched: any character is allowed.
  password: z.string().min(1, { message: 'Password is required' }).max(1024),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const AuthResponse = z
  .object({ token: z.string(), user: User })
  .meta({ id: 'AuthResponse' });
export type AuthResponse = z.infer<typeof AuthResponse>;
