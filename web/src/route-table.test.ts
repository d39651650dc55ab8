import { SPA_ROUTES } from '@upshot/contract/constants';
import { describe, expect, it } from 'vitest';
import { HOME_REDIRECT, PAGE_ROUTES, SIGNED_IN_LAYOUT } from './route-table.ts';

describe('the route table', () => {
  it('has a screen for every path the server answers with the app, and no other', () => {
    const paths = [HOME_REDIRECT.from, ...PAGE_ROUTES.map((route) => route.path)].filter(
      (path) => path !== '*',
    );
    expect(new Set(paths)).toEqual(new Set(SPA_ROUTES));
  });

  it('names page modules that export the named component (the lazy chunks the bench reads)', async () => {
    const modules = import.meta.glob<Record<string, unknown>>('./pages/*-page.tsx');
    for (const { page, component } of PAGE_ROUTES) {
      const load = modules[`./pages/${page}.tsx`];
      expect(load, page).toBeTypeOf('function');
      expect((await load!())[component], `${page} exports ${component}`).toBeTypeOf('function');
    }
    const layouts = import.meta.glob('./components/layout/*.tsx');
    expect(Object.keys(layouts)).toContain(`./${SIGNED_IN_LAYOUT}.tsx`);
  });
});
