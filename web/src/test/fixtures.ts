import type {
  AccessRequest,
  AdminUser,
  AuditEntry,
  Preferences,
  ServerConfig,
  TagSummary,
  Upload,
  UploadResponse,
  User,
  UserStats,
} from '@upshot/contract';

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 'u1',
    username: 'alice',
    email: 'alice@example.com',
    role: 'user',
    isActive: true,
    diskUsed: 0,
    diskQuota: 10 * 1024 ** 3,
    createdAt: '2025-01-01T00:00:00.000Z',
    mustChangePassword: false,
    ...overrides,
  };
}

let nextUpload = 1;

export function makeUpload(overrides: Partial<Upload> = {}): Upload {
  const n = nextUpload++;
  const shortCode = `code${n}`.padEnd(6, 'x').slice(0, 6);
  return {
    id: `up${n}`,
    originalFilename: `file-${n}.txt`,
    mimeType: 'text/plain',
    size: 1024,
    views: 0,
    shortCode,
    vanityUrl: null,
    isPublic: true,
    createdAt: '2025-03-05T14:07:00.000Z',
    tags: [],
    url: `http://localhost/${shortCode}`,
    previewUrl: `http://localhost/v/${shortCode}`,
    thumbnailUrl: null,
    expiresAt: null,
    maxViews: null,
    viewsLeft: null,
    hasPassword: false,
    ...overrides,
  };
}

export function makeServerConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  const publicUrl = overrides.publicUrl ?? 'http://localhost';
  return {
    publicUrl,
    contentUrl: publicUrl,
    chunkSize: 52_428_800,
    maxSimpleUploadBytes: 100 * 1024 * 1024,
    maxUploadBytes: 100 * 1024 ** 3,
    version: '0.5.0',
    ...overrides,
  };
}

export function makePreferences(overrides: Partial<Preferences> = {}): Preferences {
  return {
    defaultUploadPrivacy: true,
    emailNotifications: true,
    theme: 'system',
    uploadsPerPage: 20,
    defaultExpiry: 'never',
    defaultMaxViews: null,
    stripMetadata: true,
    linkStyle: 'raw',
    embedTitle: '{filename}',
    embedSiteName: 'Upshot',
    embedColor: '#0a0a0a',
    ...overrides,
  };
}

export function makeUserStats(overrides: Partial<UserStats> = {}): UserStats {
  return {
    totalUploads: 0,
    totalViews: 0,
    totalSize: 0,
    mostViewed: [],
    fileTypeBreakdown: [],
    uploadsPerDay: [],
    ...overrides,
  };
}

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

export function makeAuditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: 'a1',
    actorId: 'admin1',
    actorUsername: 'ada',
    action: 'user.updated',
    targetType: 'user',
    targetId: 'u2',
    targetLabel: 'bob',
    details: {},
    createdAt: '2025-03-06T09:30:00.000Z',
    ...overrides,
  };
}

/** A tag as the tag list answers it, with the number of uploads that carry it. */
export function makeTag(name: string, uploadCount = 0, id = `t-${name}`): TagSummary {
  return { id, name, uploadCount };
}

/** What an upload (simple, or a chunked one completed) answers. */
export function makeUploadResponse(upload: Upload): UploadResponse {
  return {
    url: upload.url,
    previewUrl: upload.previewUrl,
    message: 'File uploaded successfully',
    upload,
    deletionUrl: `http://localhost/d/${upload.id}?signature=sig`,
  };
}
