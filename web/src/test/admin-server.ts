// The Admin, Request Access and registration tests' stand-in for the endpoints they call: users,
// access requests, invitations, email and the audit log, kept as the server would keep them
// (the last-admin rule, one pending request per email, single-use invitations).
import type {
  AccessRequest,
  AdminUser,
  AuditAction,
  AuditEntry,
  CreateUserRequest,
  RegisterRequest,
  UpdateUserRequest,
  User,
} from '@upshot/contract';
import { screen, within } from '@testing-library/react';
import { jsonResponse, mockFetch } from './fetch-mock.ts';
import { makeServerConfig, makeUser, makeUserStats } from './fixtures.ts';
import { renderApp } from './render-app.tsx';

type Failable =
  | 'listUsers'
  | 'createUser'
  | 'updateUser'
  | 'deleteUser'
  | 'resetPassword'
  | 'download'
  | 'listAccessRequests'
  | 'decideAccessRequest'
  | 'deleteAccessRequest'
  | 'requestAccess'
  | 'auditLog'
  | 'inviteInfo'
  | 'register';

export const serverError = () => jsonResponse(500, { error: 'internal_error', message: 'boom' });
const notFound = () => jsonResponse(404, { error: 'not_found', message: 'Not found' });
const conflict = (message: string) => jsonResponse(409, { error: 'conflict', message });

export const INVALID_INVITE = 'This invitation is invalid or has expired';
const invalidInvite = () => jsonResponse(400, { error: 'invalid_invite', message: INVALID_INVITE });

export function makeAdminUser(overrides: Partial<AdminUser> = {}): AdminUser {
  return { ...makeUser(), uploadCount: 0, lastSeenAt: null, ...overrides };
}

export function makeAccessRequest(overrides: Partial<AccessRequest> = {}): AccessRequest {
  return {
    id: 'r1',
    name: 'Rita Visitor',
    email: 'rita@example.com',
    reason: 'I make screenshots for the docs team.',
    status: 'pending',
    createdAt: '2025-03-05T14:07:00.000Z',
    decidedAt: null,
    ...overrides,
  };
}

type Options = {
  /** The signed-in user (an admin by default); null for a visitor. */
  me?: Partial<User> | null;
  users?: AdminUser[];
  requests?: AccessRequest[];
  /** Whether the mail server takes messages (false: emailSent false, send-invite 503). */
  mail?: boolean;
  /** Invitations by code. */
  invites?: Record<string, { email: string; username: string; expiresAt?: string }>;
};

export function fakeAdminServer(options: Options = {}) {
  const me: User | null =
    options.me === null
      ? null
      : makeUser({
          id: 'admin1',
          username: 'ada',
          email: 'ada@example.com',
          role: 'admin',
          ...options.me,
        });
  const users: AdminUser[] = options.users ?? [
    ...(me ? [makeAdminUser({ ...me, uploadCount: 3, diskUsed: 3 * 1024 ** 2 })] : []),
    makeAdminUser({ id: 'u2', username: 'bob', email: 'bob@example.com', uploadCount: 1 }),
    makeAdminUser({
      id: 'u3',
      username: 'carol',
      email: 'carol@example.com',
      isActive: false,
    }),
  ];
  const requests: AccessRequest[] = options.requests ?? [];
  const audit: AuditEntry[] = [];
  const invites = new Map(Object.entries(options.invites ?? {}));
  const mail = { works: options.mail ?? true, sent: [] as { to: string; kind: string }[] };
  const passwords = new Map<string, string>();
  const fail: Partial<Record<Failable, () => Response>> = {};
  let nextId = 1;
  let tempPasswords = 0;
  const body = async <T>(request: Request) => (await request.clone().json()) as T;
  const page = <T>(rows: T[], url: URL, fallback: number) => {
    const p = Number(url.searchParams.get('page') ?? 1);
    const limit = Number(url.searchParams.get('limit') ?? fallback);
    return { rows: rows.slice((p - 1) * limit, p * limit), total: rows.length, page: p, limit };
  };
  const record = (action: AuditAction, target: { id: string; label: string }, details = {}) => {
    audit.unshift({
      id: `a${audit.length + 1}`,
      actorId: me?.id ?? null,
      actorUsername: me?.username ?? '',
      action,
      targetType: action.startsWith('access_request') ? 'access_request' : 'user',
      targetId: target.id,
      targetLabel: target.label,
      details,
      createdAt: '2025-03-06T09:30:00.000Z',
    });
  };
  const activeAdmins = () => users.filter((u) => u.role === 'admin' && u.isActive);
  const find = (id: string) => users.find((u) => u.id === id);
  const newInvite = (user: AdminUser) => {
    const code = `invite-${user.username}`;
    invites.set(code, { email: user.email, username: user.username });
    return { code, url: `http://localhost/register?invite=${code}` };
  };
  const file = (name: string, type: string, text: string) =>
    new Response(text, {
      status: 200,
      headers: { 'Content-Type': type, 'Content-Disposition': `attachment; filename="${name}"` },
    });

  const handlers: Parameters<typeof mockFetch>[0] = {
    'GET /api/auth/me': () =>
      me
        ? jsonResponse(200, me)
        : jsonResponse(401, { error: 'unauthorized', message: 'Authentication required' }),
    'POST /api/auth/logout': () => jsonResponse(204),
    'GET /api/config': () => jsonResponse(200, makeServerConfig()),
    'GET /api/stats': () => jsonResponse(200, makeUserStats()),
    'GET /api/stats/admin': () =>
      jsonResponse(200, {
        totalUsers: users.length,
        totalUploads: 0,
        totalViews: 0,
        totalStorage: 0,
        mostActiveUsers: [],
        recentActivity: [],
        uploadsPerDay: [],
      }),

    // --- users ---
    'GET /api/users': (request) => {
      if (fail.listUsers) return fail.listUsers();
      const url = new URL(request.url);
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      const role = url.searchParams.get('role');
      const status = url.searchParams.get('status');
      const matching = users.filter(
        (u) =>
          (!search ||
            u.username.toLowerCase().includes(search) ||
            u.email.toLowerCase().includes(search)) &&
          (!role || u.role === role) &&
          (!status || u.isActive === (status === 'active')),
      );
      const { rows, ...rest } = page(matching, url, 20);
      return jsonResponse(200, { users: rows, ...rest });
    },
    'POST /api/users': async (request) => {
      if (fail.createUser) return fail.createUser();
      const input = await body<Required<CreateUserRequest>>(request);
      if (users.some((u) => u.email === input.email)) {
        return conflict('A user with this email already exists');
      }
      if (users.some((u) => u.username === input.username)) {
        return conflict('This username is taken');
      }
      const user = makeAdminUser({
        id: `new${nextId++}`,
        email: input.email,
        username: input.username,
        role: input.role,
        mustChangePassword: true,
      });
      users.push(user);
      const tempPassword = `Temp-Pass-${++tempPasswords}`;
      passwords.set(user.id, tempPassword);
      const invitation = input.sendInvite ? newInvite(user) : null;
      const emailSent = input.sendInvite && mail.works;
      if (emailSent) mail.sent.push({ to: user.email, kind: 'invite' });
      record('user.created', { id: user.id, label: user.username }, { role: user.role });
      return jsonResponse(201, {
        user,
        tempPassword,
        inviteCode: invitation?.code ?? null,
        inviteUrl: invitation?.url ?? null,
        emailSent,
      });
    },
    'PATCH /api/users/:id': async (request, { id = '' }) => {
      if (fail.updateUser) return fail.updateUser();
      const user = find(id);
      if (!user) return notFound();
      const changes = await body<UpdateUserRequest>(request);
      const next = { ...user, ...changes };
      const admins = activeAdmins().filter((u) => u.id !== id);
      if (user.role === 'admin' && user.isActive && !(next.role === 'admin' && next.isActive)) {
        if (admins.length === 0) {
          return conflict('Upshot needs at least one active administrator');
        }
      }
      // Recorded as the server records it: each changed field, before and after.
      const changed = Object.fromEntries(
        Object.entries(changes).map(([key, to]) => [
          key,
          { from: user[key as keyof UpdateUserRequest], to },
        ]),
      );
      Object.assign(user, changes);
      if (me && id === me.id && changes.role) me.role = changes.role;
      record('user.updated', { id, label: user.username }, changed);
      return jsonResponse(200, user);
    },
    'DELETE /api/users/:id': (_request, { id = '' }) => {
      if (fail.deleteUser) return fail.deleteUser();
      if (id === me?.id) return conflict('You cannot delete your own account');
      const index = users.findIndex((u) => u.id === id);
      if (index < 0) return notFound();
      const [user] = users.splice(index, 1);
      record('user.deleted', { id, label: user!.username });
      return jsonResponse(204);
    },
    'POST /api/users/:id/reset-password': (_request, { id = '' }) => {
      if (fail.resetPassword) return fail.resetPassword();
      const user = find(id);
      if (!user) return notFound();
      const tempPassword = `Temp-Pass-${++tempPasswords}`;
      passwords.set(id, tempPassword);
      user.mustChangePassword = true;
      record('user.password_reset', { id, label: user.username });
      return jsonResponse(200, { tempPassword });
    },
    'GET /api/users/:id/sharex-config': (_request, { id = '' }) =>
      fail.download?.() ??
      file(`upshot-${find(id)?.username}.sxcu`, 'application/json', '{"Version":"17"}'),
    'GET /api/users/:id/bash-script': (_request, { id = '' }) =>
      fail.download?.() ?? file(`upshot-${find(id)?.username}.sh`, 'text/x-shellscript', '#!'),
    'GET /api/users/:id/powershell-script': (_request, { id = '' }) =>
      fail.download?.() ?? file(`upshot-${find(id)?.username}.ps1`, 'text/plain', 'param()'),
    'POST /api/users/:id/change-password': async (request, { id = '' }) => {
      const sent = await body<{ currentPassword: string; newPassword: string }>(request);
      if ((passwords.get(id) ?? 'old-password') !== sent.currentPassword) {
        return jsonResponse(400, {
          error: 'validation_error',
          message: 'Current password is incorrect',
        });
      }
      passwords.set(id, sent.newPassword);
      if (me && me.id === id) me.mustChangePassword = false;
      return jsonResponse(204);
    },

    // --- email and the audit log ---
    'POST /api/email/send-invite': async (request) => {
      const sent = await body<{ to: string }>(request);
      if (!mail.works) {
        return jsonResponse(503, {
          error: 'email_not_sent',
          message:
            'Email is not configured on this server (set SMTP_URL); send the details by hand',
        });
      }
      mail.sent.push({ to: sent.to, kind: 'credentials' });
      return jsonResponse(200, { emailSent: true });
    },
    'GET /api/audit-log': (request) => {
      if (fail.auditLog) return fail.auditLog();
      const { rows, ...rest } = page(audit, new URL(request.url), 50);
      return jsonResponse(200, { entries: rows, ...rest });
    },

    // --- access requests ---
    'POST /api/access-requests': async (request) => {
      if (fail.requestAccess) return fail.requestAccess();
      const input = await body<{ email: string; name: string; reason: string }>(request);
      if (requests.some((r) => r.email === input.email && r.status === 'pending')) {
        return conflict('A request for this email is already pending');
      }
      requests.unshift(makeAccessRequest({ id: `r${nextId++}`, ...input }));
      return jsonResponse(201, { message: 'Your request has been submitted.' });
    },
    'GET /api/access-requests': (request) => {
      if (fail.listAccessRequests) return fail.listAccessRequests();
      const url = new URL(request.url);
      const status = url.searchParams.get('status');
      const { rows, ...rest } = page(
        requests.filter((r) => !status || r.status === status),
        url,
        50,
      );
      return jsonResponse(200, { requests: rows, ...rest });
    },
    'PATCH /api/access-requests/:id': async (request, { id = '' }) => {
      if (fail.decideAccessRequest) return fail.decideAccessRequest();
      const found = requests.find((r) => r.id === id);
      if (!found) return notFound();
      if (found.status !== 'pending') return conflict(`This request was ${found.status} already`);
      const { status } = await body<{ status: 'approved' | 'rejected' }>(request);
      found.status = status;
      found.decidedAt = '2025-03-06T09:30:00.000Z';
      record(`access_request.${status}`, { id, label: `${found.name} <${found.email}>` });
      if (status === 'rejected') {
        return jsonResponse(200, {
          request: found,
          user: null,
          inviteUrl: null,
          emailSent: mail.works,
        });
      }
      const user = makeAdminUser({
        id: `new${nextId++}`,
        email: found.email,
        username: found.name.split(' ')[0]!.toLowerCase(),
        mustChangePassword: true,
      });
      users.push(user);
      const invitation = newInvite(user);
      if (mail.works) mail.sent.push({ to: user.email, kind: 'approved' });
      return jsonResponse(200, {
        request: found,
        user,
        inviteUrl: invitation.url,
        emailSent: mail.works,
      });
    },
    'DELETE /api/access-requests/:id': (_request, { id = '' }) => {
      if (fail.deleteAccessRequest) return fail.deleteAccessRequest();
      const index = requests.findIndex((r) => r.id === id);
      if (index < 0) return notFound();
      requests.splice(index, 1);
      record('access_request.deleted', { id, label: id });
      return jsonResponse(204);
    },

    // --- invitations ---
    'GET /api/auth/invites/:code': (_request, { code = '' }) => {
      if (fail.inviteInfo) return fail.inviteInfo();
      const invite = invites.get(code);
      if (!invite) return invalidInvite();
      return jsonResponse(200, { expiresAt: '2025-03-12T09:30:00.000Z', ...invite });
    },
    'POST /api/auth/register': async (request) => {
      if (fail.register) return fail.register();
      const input = await body<RegisterRequest>(request);
      const invite = invites.get(input.inviteCode);
      if (!invite) return invalidInvite();
      const username = input.username ?? invite.username;
      if (users.some((u) => u.username === username && u.email !== invite.email)) {
        return conflict('This username is taken');
      }
      invites.delete(input.inviteCode);
      const user = makeUser({ id: 'invited1', email: invite.email, username });
      return jsonResponse(200, { token: 'registered-token', user });
    },
  };

  return { handlers, me, users, requests, audit, invites, mail, passwords, fail };
}

export type AdminServer = ReturnType<typeof fakeAdminServer>;

/** The app at `path` over the stand-in (signed in unless the server has no `me`). */
export function renderWithAdminServer(server: AdminServer, path = '/admin') {
  if (server.me) localStorage.setItem('auth_token', 'tok');
  const network = mockFetch(server.handlers);
  const sent = (method: string, pathname: string) =>
    network.requests.filter((r) => r.method === method && new URL(r.url).pathname === pathname);
  return { ...renderApp(path), ...network, sent };
}

export const usersTable = () => screen.findByRole('table', { name: 'Users' });

export const userRow = async (username: string) =>
  within(await usersTable()).findByRole('row', { name: username });

/** Opens a row's menu and picks an item. */
export async function rowAction(
  user: ReturnType<typeof renderWithAdminServer>['user'],
  username: string,
  item: string,
) {
  await user.click(
    within(await userRow(username)).getByRole('button', { name: `Actions for ${username}` }),
  );
  await user.click(await screen.findByRole('menuitem', { name: item }));
}
