/**
 * Every endpoint's method, path and who may call it: the zod-free half of the route table
 * (`api.ts` adds the schemas). The server registers its routes from it, the web client calls
 * endpoints by name through it, and the OpenAPI reference is generated from it, so no API path
 * is written anywhere else.
 */

/** public: anyone; user: any signed-in user; admin: administrators only. */
export type Access = 'public' | 'user' | 'admin';

export type RouteSpec = {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Fastify syntax: `:name` marks a path parameter. */
  path: string;
  access: Access;
  /**
   * The server does not look up the caller's credentials for it (the operator's checks: they
   * must answer whatever the database does, and a scraper's bearer token is no session).
   */
  ignoresCredentials?: true;
  /**
   * It serves an upload's bytes, or bytes made from them (a thumbnail): it passes the links
   * module's one gate (privacy, expiry, view limit, password), and the gate's test checks every
   * such route.
   */
  servesUploadBytes?: true;
  /**
   * A path of user content (a link, its thumbnail, its preview page, their password forms):
   * with CONTENT_URL set, answered on that origin only, and redirected there from the app's.
   */
  userContent?: true;
};

export const ROUTES = {
  // system
  config: { method: 'GET', path: '/api/config', access: 'public' },
  openapi: { method: 'GET', path: '/api/openapi.json', access: 'public' },
  health: { method: 'GET', path: '/api/health', access: 'public', ignoresCredentials: true },
  healthReady: {
    method: 'GET',
    path: '/api/health/ready',
    access: 'public',
    ignoresCredentials: true,
  },
  /** Public as far as sessions go: METRICS_TOKEN opens it, no user does. */
  metrics: { method: 'GET', path: '/metrics', access: 'public', ignoresCredentials: true },

  // auth
  login: { method: 'POST', path: '/api/auth/login', access: 'public' },
  logout: { method: 'POST', path: '/api/auth/logout', access: 'user' },
  me: { method: 'GET', path: '/api/auth/me', access: 'user' },
  register: { method: 'POST', path: '/api/auth/register', access: 'public' },
  inviteInfo: { method: 'GET', path: '/api/auth/invites/:code', access: 'public' },

  // access requests
  requestAccess: { method: 'POST', path: '/api/access-requests', access: 'public' },
  listAccessRequests: { method: 'GET', path: '/api/access-requests', access: 'admin' },
  decideAccessRequest: { method: 'PATCH', path: '/api/access-requests/:id', access: 'admin' },
  deleteAccessRequest: { method: 'DELETE', path: '/api/access-requests/:id', access: 'admin' },

  // email and the audit log
  sendInvite: { method: 'POST', path: '/api/email/send-invite', access: 'admin' },
  auditLog: { method: 'GET', path: '/api/audit-log', access: 'admin' },

  // users
  listUsers: { method: 'GET', path: '/api/users', access: 'admin' },
  createUser: { method: 'POST', path: '/api/users', access: 'admin' },
  updateUser: { method: 'PATCH', path: '/api/users/:id', access: 'admin' },
  deleteUser: { method: 'DELETE', path: '/api/users/:id', access: 'admin' },
  resetPassword: { method: 'POST', path: '/api/users/:id/reset-password', access: 'admin' },
  getUser: { method: 'GET', path: '/api/users/:id', access: 'user' },
  changePassword: { method: 'POST', path: '/api/users/:id/change-password', access: 'user' },
  regenerateApiToken: { method: 'POST', path: '/api/users/:id/api-token', access: 'user' },

  // desktop uploaders
  sharexConfig: { method: 'GET', path: '/api/upload/sharex-config', access: 'user' },
  userSharexConfig: { method: 'GET', path: '/api/users/:id/sharex-config', access: 'user' },
  userBashScript: { method: 'GET', path: '/api/users/:id/bash-script', access: 'user' },
  userPowershellScript: {
    method: 'GET',
    path: '/api/users/:id/powershell-script',
    access: 'user',
  },

  // uploads
  uploadFile: { method: 'POST', path: '/api/upload', access: 'user' },
  listUploads: { method: 'GET', path: '/api/uploads', access: 'user' },
  getUpload: { method: 'GET', path: '/api/uploads/:id', access: 'user' },
  uploadAccessUrl: { method: 'GET', path: '/api/uploads/:id/access-url', access: 'user' },
  updateUpload: { method: 'PATCH', path: '/api/uploads/:id', access: 'user' },
  deleteUpload: { method: 'DELETE', path: '/api/uploads/:id', access: 'user' },
  batchDeleteUploads: { method: 'POST', path: '/api/uploads/batch/delete', access: 'user' },
  batchPrivacy: { method: 'POST', path: '/api/uploads/batch/privacy', access: 'user' },

  // tags
  listTags: { method: 'GET', path: '/api/tags', access: 'user' },
  createTag: { method: 'POST', path: '/api/tags', access: 'user' },
  renameTag: { method: 'PATCH', path: '/api/tags/:tagId', access: 'user' },
  deleteTag: { method: 'DELETE', path: '/api/tags/:tagId', access: 'user' },
  tagUploads: { method: 'GET', path: '/api/tags/:tagId/uploads', access: 'user' },
  addTagToUpload: { method: 'POST', path: '/api/tags/:tagId/uploads/:uploadId', access: 'user' },
  removeTagFromUpload: {
    method: 'DELETE',
    path: '/api/tags/:tagId/uploads/:uploadId',
    access: 'user',
  },
  batchAddTag: { method: 'POST', path: '/api/uploads/batch/add-tag', access: 'user' },
  batchRemoveTag: { method: 'POST', path: '/api/uploads/batch/remove-tag', access: 'user' },

  // preferences
  getPreferences: { method: 'GET', path: '/api/preferences', access: 'user' },
  updatePreferences: { method: 'PATCH', path: '/api/preferences', access: 'user' },

  // statistics
  stats: { method: 'GET', path: '/api/stats', access: 'user' },
  adminStats: { method: 'GET', path: '/api/stats/admin', access: 'admin' },

  // chunked uploads
  chunkedInit: { method: 'POST', path: '/api/chunked-upload/init', access: 'user' },
  chunkedChunk: { method: 'POST', path: '/api/chunked-upload/chunk', access: 'user' },
  chunkedComplete: { method: 'POST', path: '/api/chunked-upload/complete', access: 'user' },
  chunkedStatus: { method: 'GET', path: '/api/chunked-upload/:uploadId', access: 'user' },
  chunkedAbort: { method: 'DELETE', path: '/api/chunked-upload/:uploadId', access: 'user' },

  // deletion links (no sign-in: the signature is the credential)
  deletionPage: { method: 'GET', path: '/d/:id', access: 'public' },
  deleteByLink: { method: 'POST', path: '/d/:id', access: 'public' },

  /** oEmbed 1.0 for a link (chat apps ask it; the credentials of none are looked at). */
  oembed: { method: 'GET', path: '/api/oembed', access: 'public', ignoresCredentials: true },

  // the links (GET answers HEAD too)
  /** An upload's preview page: its name, size, a Download button and the file shown by type. */
  preview: {
    method: 'GET',
    path: '/v/:slug',
    access: 'public',
    servesUploadBytes: true,
    userContent: true,
  },
  /** A protected preview page's password form posts here; it unlocks the raw link too. */
  unlockPreview: { method: 'POST', path: '/v/:slug', access: 'public', userContent: true },
  thumbnail: {
    method: 'GET',
    path: '/thumb/:code',
    access: 'public',
    servesUploadBytes: true,
    userContent: true,
  },
  file: {
    method: 'GET',
    path: '/:slug',
    access: 'public',
    servesUploadBytes: true,
    userContent: true,
  },
  /** A protected link's password form posts here (never in a URL). */
  unlockFile: { method: 'POST', path: '/:slug', access: 'public', userContent: true },
} as const satisfies Record<string, RouteSpec>;

export type RouteName = keyof typeof ROUTES;

/** The path with its parameters filled in (each encoded as one path segment). */
export function routePath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}
