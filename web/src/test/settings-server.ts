// The Settings and Profile tests' stand-in for the endpoints they call: preferences, the user
// with their API token, password changes, token regeneration and the uploader downloads, kept
// as the server would keep them.
import { screen } from '@testing-library/react';
import type { Preferences, UserStats, UserWithToken } from '@upshot/contract';
import { jsonResponse, mockFetch } from './fetch-mock.ts';
import { makePreferences, makeServerConfig, makeUser, makeUserStats } from './fixtures.ts';
import { renderApp } from './render-app.tsx';

type Failable =
  | 'getPreferences'
  | 'updatePreferences'
  | 'getUser'
  | 'changePassword'
  | 'regenerateApiToken'
  | 'download'
  | 'stats';

export const serverError = () => jsonResponse(500, { error: 'internal_error', message: 'boom' });

export const FIRST_TOKEN = 'upt_first-token-abcdefghijklmnopqrstuvwxyz-1234';

type Options = {
  user?: Partial<UserWithToken>;
  preferences?: Partial<Preferences>;
  stats?: Partial<UserStats>;
  password?: string;
};

export function fakeSettingsServer(options: Options = {}) {
  const user: UserWithToken = { ...makeUser(), apiToken: FIRST_TOKEN, ...options.user };
  const preferences = makePreferences(options.preferences);
  let password = options.password ?? 'old-password';
  let tokens = 0;
  const fail: Partial<Record<Failable, () => Response>> = {};
  const body = async <T>(request: Request) => (await request.clone().json()) as T;
  const file = (name: string, type: string, text: string) =>
    new Response(text, {
      status: 200,
      headers: { 'Content-Type': type, 'Content-Disposition': `attachment; filename="${name}"` },
    });

  const handlers: Parameters<typeof mockFetch>[0] = {
    'GET /api/auth/me': () => jsonResponse(200, { ...user, apiToken: undefined }),
    'GET /api/config': () => jsonResponse(200, makeServerConfig()),
    'POST /api/auth/logout': () => jsonResponse(204),
    'GET /api/preferences': () =>
      fail.getPreferences?.() ?? jsonResponse(200, { preferences: { ...preferences } }),
    'PATCH /api/preferences': async (request) => {
      if (fail.updatePreferences) return fail.updatePreferences();
      Object.assign(preferences, await body<Partial<Preferences>>(request));
      return jsonResponse(200, { preferences: { ...preferences } });
    },
    'GET /api/users/:id': (_request, { id }) => {
      if (fail.getUser) return fail.getUser();
      if (id !== user.id) return jsonResponse(404, { error: 'not_found', message: 'Not found' });
      return jsonResponse(200, { ...user });
    },
    'POST /api/users/:id/change-password': async (request) => {
      if (fail.changePassword) return fail.changePassword();
      const sent = await body<{ currentPassword: string; newPassword: string }>(request);
      if (sent.currentPassword !== password) {
        return jsonResponse(400, {
          error: 'validation_error',
          message: 'Current password is incorrect',
        });
      }
      password = sent.newPassword;
      return jsonResponse(204);
    },
    'POST /api/users/:id/api-token': () => {
      if (fail.regenerateApiToken) return fail.regenerateApiToken();
      user.apiToken = `upt_regenerated-token-${++tokens}-wxyz`;
      return jsonResponse(200, { apiToken: user.apiToken });
    },
    'GET /api/users/:id/sharex-config': () =>
      fail.download?.() ??
      file(
        `upshot-${user.username}.sxcu`,
        'application/json',
        JSON.stringify({ Headers: { 'X-API-Token': user.apiToken } }),
      ),
    'GET /api/users/:id/bash-script': () =>
      fail.download?.() ?? file(`upshot-${user.username}.sh`, 'text/x-shellscript', '#!/bin/bash'),
    'GET /api/users/:id/powershell-script': () =>
      fail.download?.() ?? file(`upshot-${user.username}.ps1`, 'text/plain', 'param()'),
    'GET /api/stats': () => fail.stats?.() ?? jsonResponse(200, makeUserStats(options.stats)),
  };

  return {
    handlers,
    user,
    preferences,
    fail,
    get password() {
      return password;
    },
  };
}

export type SettingsServer = ReturnType<typeof fakeSettingsServer>;

/** The signed-in app at `path` over the stand-in, with helpers to read what was sent. */
export function renderWithSettingsServer(server: SettingsServer, path = '/settings') {
  localStorage.setItem('auth_token', 'tok');
  const network = mockFetch(server.handlers);
  const sent = (method: string, path: string) =>
    network.requests.filter((r) => r.method === method && new URL(r.url).pathname === path);
  const writes = () =>
    network.requests
      .filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${new URL(r.url).pathname}`);
  return { ...renderApp(path), ...network, sent, writes };
}

/** A section of the Settings screen, by its title. */
export const settingsSection = (name: string) => screen.findByRole('region', { name });
