/**
 * Link controls for API tests: uploads made with link settings, requests to their links as a
 * visitor's browser makes them (a cookie jar), and changes through the API.
 */
import type { Upload } from '@upshot/contract';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestContext } from './context.ts';
import { uploadFile } from './uploads.ts';

export type Auth = Record<string, string>;

/** An upload with these fields (link settings among them) and headers; answers its JSON. */
export async function uploadWith(
  ctx: TestContext,
  auth: Auth,
  fields: Record<string, string> = {},
  file: { filename?: string; contentType?: string; data?: Buffer } = {},
): Promise<Upload> {
  const res = await uploadFile(
    ctx,
    auth,
    {
      filename: file.filename ?? 'note.txt',
      contentType: file.contentType ?? 'text/plain',
      data: file.data ?? Buffer.from('hello, link\n'),
    },
    fields,
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ upload: Upload }>().upload;
}

/** PATCH /api/uploads/{id}. */
export function patchUpload(ctx: TestContext, auth: Auth, id: string, body: unknown) {
  return ctx.app.inject({
    method: 'PATCH',
    url: `/api/uploads/${id}`,
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

/** The upload as its owner sees it now. */
export async function ownersView(ctx: TestContext, auth: Auth, id: string): Promise<Upload> {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/uploads/${id}`, headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Upload>();
}

/** The path of an upload's link (its short code). */
export const linkPath = (upload: Pick<Upload, 'shortCode'>) => `/${upload.shortCode}`;

/**
 * A visitor's browser: its own address and cookie jar; every request to a link sends the
 * cookies it was given.
 */
export function visitor(ctx: TestContext, ip = '203.0.113.7') {
  /**
   * name and path to value: a cookie goes back, as a browser sends it, to its path only (one
   * name may be set on several paths).
   */
  const jar = new Map<string, { name: string; value: string; path: string }>();
  const keep = (res: LightMyRequestResponse) => {
    for (const c of res.cookies as {
      name: string;
      value: string;
      path?: string;
      maxAge?: number;
    }[]) {
      const path = c.path ?? '/';
      if (c.maxAge === 0) jar.delete(`${c.name}\0${path}`);
      else jar.set(`${c.name}\0${path}`, { name: c.name, value: c.value, path });
    }
    return res;
  };
  const cookieHeader = (url: string) => {
    const path = url.split('?')[0]!;
    const sent = [...jar].filter(
      ([, c]) => c.path === '/' || path === c.path || path.startsWith(`${c.path}/`),
    );
    return sent.map(([, c]) => `${c.name}=${c.value}`).join('; ') || undefined;
  };
  const send = async (options: InjectOptions & { url: string }) => {
    const cookie = cookieHeader(options.url);
    return keep(
      await ctx.app.inject({
        remoteAddress: ip,
        ...options,
        headers: { ...(cookie ? { cookie } : {}), ...options.headers },
      }),
    );
  };
  return {
    jar,
    get: (url: string, headers: Record<string, string> = {}) =>
      send({ method: 'GET', url, headers }),
    head: (url: string, headers: Record<string, string> = {}) =>
      send({ method: 'HEAD', url, headers }),
    /** The password form's POST, as the browser sends it. */
    unlock: (url: string, password: string) =>
      send({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ password }).toString(),
      }),
  };
}

/** Runs the periodic job that deletes dead links (expired, or used up), as the scheduler does. */
export function sweepDeadLinks(ctx: TestContext): Promise<number> {
  return ctx.modules.uploads.service.sweepDeadLinks();
}

/** The signature with its first hex digit changed to another: a forgery every time. */
export function flipHexDigit(sig: string): string {
  return (sig[0] === '0' ? '1' : '0') + sig.slice(1);
}

/** The URL (or path and query) with its `signature` parameter forged by one digit. */
export function withForgedSignature(url: string): string {
  const forged = url.replace(/([?&]signature=)([0-9a-f]+)/, (_, key: string, sig: string) => {
    return key + flipHexDigit(sig);
  });
  expect(forged).not.toBe(url);
  return forged;
}
