import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { RouteErrorBoundary } from './components/route-error.tsx';
import { FullScreenSpinner } from './components/ui/spinner.tsx';
import { AdminRoute, GuestRoute, ProtectedRoute } from './features/auth/index.ts';
import { HOME_REDIRECT, PAGE_ROUTES, type PageAccess, type PageRoute } from './route-table.ts';

// One chunk per page, loaded when its route is first matched: the sign-in screen downloads
// neither the uploads screen nor the signed-in frame and its menus. Declarative routes (not
// createBrowserRouter) on purpose: the data router would add some 17 KB (gzip) to every first
// load for loaders and actions this app does not use.
const pageModules = import.meta.glob<Record<string, ComponentType>>('./pages/*-page.tsx');

function lazyPage({ page, component }: PageRoute) {
  return lazy(async () => {
    const load = pageModules[`./pages/${page}.tsx`];
    const Component = load ? (await load())[component] : undefined;
    if (!Component) throw new Error(`src/pages/${page}.tsx does not export ${component}`);
    return { default: Component };
  });
}

// Made once, at load: a lazy component made during render would load and mount afresh each time.
const pages = PAGE_ROUTES.map((route) => ({ ...route, Page: lazyPage(route) }));

const AppLayout = lazy(async () => ({
  default: (await import('./components/layout/app-layout.tsx')).AppLayout,
}));

function routesFor(access: PageAccess) {
  return pages
    .filter((route) => route.access === access)
    .map(({ path, Page }) => <Route key={path} path={path} element={<Page />} />);
}

/** Every screen, by the table in route-table.ts; navigation keeps a screen up until the next has loaded. */
export function AppRoutes() {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary resetKey={pathname}>
      <Suspense fallback={<FullScreenSpinner />}>
        <Routes>
          <Route path={HOME_REDIRECT.from} element={<Navigate to={HOME_REDIRECT.to} replace />} />
          <Route element={<GuestRoute />}>{routesFor('guest')}</Route>
          <Route element={<ProtectedRoute />}>
            <Route element={<AppLayout />}>
              {routesFor('user')}
              <Route element={<AdminRoute />}>{routesFor('admin')}</Route>
            </Route>
          </Route>
          {routesFor('public')}
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}
