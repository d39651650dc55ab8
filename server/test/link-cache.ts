/** Waiting on the links an instance keeps in memory (PostgreSQL; uploads/link-cache.ts). */
import { expect, vi } from 'vitest';
import type { App, Built } from '../src/app.ts';

/**
 * GETs `url` (expecting 200) until an answer came from the instance's memory: an instance holds
 * its lease a moment after it starts, and a link is kept from its first lookup on. With
 * `keeps: false` (SQLite, which keeps nothing) one 200 is enough.
 */
export async function servedFromMemory(
  instance: { app: App; modules: Built['modules'] },
  url: string,
  options: { headers?: Record<string, string>; keeps?: boolean } = {},
): Promise<void> {
  const get = () => instance.app.inject({ method: 'GET', url, headers: options.headers });
  if (options.keeps === false) {
    expect((await get()).statusCode).toBe(200);
    return;
  }
  const hits = () => instance.modules.uploads.linkCache.stats().hits;
  await vi.waitFor(
    async () => {
      const before = hits();
      expect((await get()).statusCode).toBe(200);
      expect(hits()).toBeGreaterThan(before);
    },
    { timeout: 10_000, interval: 20 },
  );
}

/** GETs `url` until it answers `status` (a change nobody waits for, seen a moment later). */
export async function untilAnswered(app: App, url: string, status: number): Promise<void> {
  await vi.waitFor(
    async () => expect((await app.inject({ method: 'GET', url })).statusCode).toBe(status),
    { timeout: 5000, interval: 10 },
  );
}
