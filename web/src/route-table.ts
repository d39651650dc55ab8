// Every screen of the app: its path, who may open it, and the page module that draws it (one
// lazily loaded chunk each). Plain data without JSX, so the bundle benchmark
// (bench/web-bundle.ts) can read it too. Keep the paths in step with SPA_ROUTES in the contract:
// the server answers those with index.html.

/** public: anyone; guest: signed-out visitors (signed-in users move on); user, admin: signed in. */
export type PageAccess = 'public' | 'guest' | 'user' | 'admin';

export type PageRoute = {
  path: string;
  access: PageAccess;
  /** File name under src/pages/, without `.tsx`; it exports `component`. */
  page: string;
  component: string;
};

export const PAGE_ROUTES = [
  { path: '/login', access: 'guest', page: 'login-page', component: 'LoginPage' },
  {
    path: '/request-access',
    access: 'public',
    page: 'request-access-page',
    component: 'RequestAccessPage',
  },
  { path: '/register', access: 'public', page: 'register-page', component: 'RegisterPage' },
  { path: '/dashboard', access: 'user', page: 'dashboard-page', component: 'DashboardPage' },
  { path: '/uploads', access: 'user', page: 'uploads-page', component: 'UploadsPage' },
  { path: '/settings', access: 'user', page: 'settings-page', component: 'SettingsPage' },
  { path: '/profile', access: 'user', page: 'profile-page', component: 'ProfilePage' },
  { path: '/admin', access: 'admin', page: 'admin-page', component: 'AdminPage' },
  { path: '*', access: 'public', page: 'not-found-page', component: 'NotFoundPage' },
] as const satisfies readonly PageRoute[];

/** The frame (navbar) around every signed-in screen, under src/; loaded with the first of them. */
export const SIGNED_IN_LAYOUT = 'components/layout/app-layout';

/** `/` itself only redirects. */
export const HOME_REDIRECT = { from: '/', to: '/dashboard' } as const;
