import type { Preferences, ServerConfig, Upload, User, UserStats } from '@upshot/contract';

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
    thumbnailUrl: null,
    ...overrides,
  };
}

export function makeServerConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    publicUrl: 'http://localhost',
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
