import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  MemoryRouter,
  useLocation,
  useNavigate,
  useNavigationType,
  type Location,
  type NavigateFunction,
  type NavigationType,
} from 'react-router';
import { Toaster } from '../components/ui/sonner.tsx';
import { AuthProvider } from '../features/auth/index.ts';
import { AppRoutes } from '../router.tsx';

export function createTestQueryClient() {
  return new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
}

type RouterHandle = {
  /** Where the app is now, and how it got there (PUSH, REPLACE or POP). */
  state: { location: Location; historyAction: NavigationType };
  /** Navigates as the app would (a number walks the history, like back and forward). */
  navigate: (to: string | number) => Promise<void>;
};

function RouterProbe({ handle }: { handle: { current?: RouterHandle } }) {
  const location = useLocation();
  const historyAction = useNavigationType();
  const navigate: NavigateFunction = useNavigate();
  handle.current = {
    state: { location, historyAction },
    navigate: (to) =>
      act(async () => {
        await (typeof to === 'number' ? navigate(to) : navigate(to));
      }),
  };
  return null;
}

/** The whole app as main.tsx assembles it, on a memory router starting at `path`. */
export function renderApp(path: string) {
  const queryClient = createTestQueryClient();
  const user = userEvent.setup({ delay: null });
  const handle: { current?: RouterHandle } = {};
  render(
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <MemoryRouter initialEntries={[path]}>
          <AppRoutes />
          <RouterProbe handle={handle} />
        </MemoryRouter>
        <Toaster />
      </AuthProvider>
    </QueryClientProvider>,
  );
  const router: RouterHandle = {
    get state() {
      if (!handle.current) throw new Error('the router has not rendered');
      return handle.current.state;
    },
    navigate: (to) => handle.current!.navigate(to),
  };
  return { router, user, queryClient };
}

/** The path, query string and hash the app shows now. */
export function currentUrl(router: RouterHandle): string {
  const { pathname, search, hash } = router.state.location;
  return `${pathname}${search}${hash}`;
}
