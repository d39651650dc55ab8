/** Client-side routes of the web app; the server answers them with index.html. */
export const SPA_ROUTES = [
  '/',
  '/login',
  '/request-access',
  '/register',
  '/dashboard',
  '/uploads',
  '/settings',
  '/admin',
  '/profile',
] as const;

export const API_BASE = '/api';
