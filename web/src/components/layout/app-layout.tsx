import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { ThemeSync } from '../../features/preferences/index.ts';
import { Spinner } from '../ui/spinner.tsx';
import { Navbar } from './navbar.tsx';

/** The frame of every signed-in screen: navbar on top, the screen below. */
export function AppLayout() {
  return (
    <div className="flex min-h-svh flex-col">
      <ThemeSync />
      <Navbar />
      <main className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-6 px-4 py-8 sm:px-6">
        {/* The first visit to a screen loads its chunk under the navbar, not over it. */}
        <Suspense
          fallback={
            <div className="flex flex-1 items-center justify-center">
              <Spinner className="size-6 text-muted-foreground" />
            </div>
          }
        >
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
