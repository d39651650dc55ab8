import { Navigate, createBrowserRouter, type RouteObject } from 'react-router';
import { AppLayout } from './components/layout/app-layout.tsx';
import { AdminRoute, GuestRoute, ProtectedRoute } from './features/auth/index.ts';
import { AdminPage } from './pages/admin-page.tsx';
import { DashboardPage } from './pages/dashboard-page.tsx';
import { LoginPage } from './pages/login-page.tsx';
import { NotFoundPage } from './pages/not-found-page.tsx';
import { ProfilePage } from './pages/profile-page.tsx';
import { RequestAccessPage } from './pages/request-access-page.tsx';
import { SettingsPage } from './pages/settings-page.tsx';
import { UploadsPage } from './pages/uploads-page.tsx';

// Keep the paths in step with SPA_ROUTES in @upshot/contract: the server answers those with index.html.
export const routes: RouteObject[] = [
  { path: '/', element: <Navigate to="/dashboard" replace /> },
  {
    path: '/login',
    element: (
      <GuestRoute>
        <LoginPage />
      </GuestRoute>
    ),
  },
  { path: '/request-access', element: <RequestAccessPage /> },
  { path: '/register', element: <RequestAccessPage /> },
  {
    element: (
      <ProtectedRoute>
        <AppLayout />
      </ProtectedRoute>
    ),
    children: [
      { path: '/dashboard', element: <DashboardPage /> },
      { path: '/uploads', element: <UploadsPage /> },
      { path: '/settings', element: <SettingsPage /> },
      { path: '/profile', element: <ProfilePage /> },
      {
        path: '/admin',
        element: (
          <AdminRoute>
            <AdminPage />
          </AdminRoute>
        ),
      },
    ],
  },
  { path: '*', element: <NotFoundPage /> },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
