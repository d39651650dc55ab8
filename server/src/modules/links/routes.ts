/**
 * The share links: GET/HEAD /{vanityOrShortCode}, /thumb/{shortCode} and the preview page
 * /v/{slug}, and POST /{slug} and /v/{slug}, a protected link's password form.
 */
import { API, API_BASE, LINK_HEADERS } from '@upshot/contract';
import { parseCookie } from 'cookie';
import crypto from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import type { OutgoingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError, NotImplementedError, ValidationError } from '../../errors.ts';
import { headerValue, utf8HeaderValue } from '../../lib/headers.ts';
import { route, type RouteContext } from '../../plugins/route-table.ts';
import { pumpFile } from './file-pump.ts';
import {
  crossSitePage,
  gonePage,
  noSuchLinkPage,
  passwordPage,
  tooManyPasswordsPage,
} from './pages.ts';
import { baseHeaders, keptFileHeaders, PAGE_HEADERS, setCookieHeader } from './presenter.ts';
import type { Refusal } from './gate.ts';
import { previewCsp } from './content-policy.ts';
import { previewPageHtml, type PreviewAssets } from './preview-page.ts';
import { embedTagsHtml } from './embed-tags.ts';
import { isDescribable } from './policy.ts';
import type { Body, LinkRequest, LinksService } from './service.ts';
import { isOpenToAll, type LinkCookie } from './urls.ts';

/** A signed link's query, carried from the page to the raw link it shows. */
function signedQueryOf(query: unknown): string {
  const q = query as Record<string, unknown>;
  const { expires, signature } = q;
  if (typeof expires !== 'string' || typeof signature !== 'string') return '';
  if (!/^\d{1,16}$/.test(expires) || !/^[0-9a-f]{32}$/.test(signature)) return '';
  return `?expires=${expires}&signature=${signature}`;
}

function linkRequest(request: FastifyRequest): LinkRequest {
  const h = request.headers;
  const q = request.query as Record<string, unknown>;
  const cookieHeader = headerValue(h.cookie);
  return {
    // A session that must choose its password first opens nothing the public cannot.
    viewer: request.auth && !request.auth.user.mustChangePassword ? request.auth.user : null,
    log: request.log,
    ip: request.ip,
    cookies: cookieHeader ? parseCookie(cookieHeader) : {},
    password: utf8HeaderValue(h[LINK_HEADERS.password]),
    signed: { expires: q.expires, signature: q.signature },
    head: request.method === 'HEAD',
    ifNoneMatch: headerValue(h['if-none-match']),
    ifModifiedSince: headerValue(h['if-modified-since']),
    ifRange: headerValue(h['if-range']),
    range: headerValue(h.range),
    download: q.download !== undefined,
    frame: h['sec-fetch-dest'] === 'iframe',
    frameCopy: q.frame !== undefined,
  };
}

/**
 * A stream ends with its connection: a response queued behind another on a pipelined
 * connection gets no 'close' of its own when the client leaves, and its stream would keep a
 * file open.
 */
function sendStream(reply: FastifyReply, stream: Readable) {
  const socket = reply.request.raw.socket;
  const onClose = () => stream.destroy();
  socket.once('close', onClose);
  stream.once('close', () => socket.off('close', onClose));
  return reply.send(stream);
}

/** A large local file goes out through recycled buffers on the raw response. */
function sendFile(reply: FastifyReply, file: FileHandle, start: number, length: number) {
  reply.hijack();
  const head = { status: reply.statusCode, headers: reply.getHeaders() as OutgoingHttpHeaders };
  pumpFile(file, start, length, reply.raw, head).catch((err: unknown) => {
    if (reply.raw.headersSent) reply.log.debug({ err }, 'download ended early');
    else reply.log.error({ err }, 'could not send the response head');
    reply.raw.destroy();
  });
  return reply;
}

/** What a link that does not exist answers: the content origin's not-found page too. */
export function sendNoSuchLink(reply: FastifyReply): FastifyReply {
  return reply.status(404).headers(PAGE_HEADERS).send(noSuchLinkPage());
}

/** A link the gate turned away: the page that says why (401, 410 or 429). */
function refuse(reply: FastifyReply, refusal: Refusal) {
  reply.headers(PAGE_HEADERS);
  if (refusal.kind === 'gone') return reply.status(410).send(gonePage(refusal.reason));
  if (refusal.kind === 'locked') return reply.status(401).send(passwordPage(refusal.wrong));
  return reply
    .status(429)
    .header('retry-after', String(refusal.retryAfterSeconds))
    .send(tooManyPasswordsPage(refusal.retryAfterSeconds));
}

function send(reply: FastifyReply, body: Body | null, start: number, length: number) {
  if (!body) return reply.send();
  if ('bytes' in body) return reply.send(body.bytes);
  if ('file' in body) return sendFile(reply, body.file, start, length);
  return sendStream(reply, body.stream);
}

export function linksRoutes(deps: {
  links: LinksService;
  publicMaxAgeSeconds: number;
  /** The app's address (PUBLIC_URL): the API beside the links, for oEmbed discovery. */
  publicUrl: string;
  /**
   * Where links are served (CONTENT_URL, else PUBLIC_URL): a cookie is Secure on https, and set
   * on its path.
   */
  contentUrl: string;
  /** The preview page's script and stylesheets (the web build's). */
  previewAssets: PreviewAssets;
}) {
  const { links, publicMaxAgeSeconds } = deps;
  const headersOf = keptFileHeaders(publicMaxAgeSeconds);
  const base = new URL(deps.contentUrl);
  const secure = base.protocol === 'https:';
  const basePath = base.pathname.replace(/\/+$/, '');
  // The link's path as the browser knows it (a proxy may serve links under PUBLIC_URL's path),
  // and its preview page's: the page shows what the link serves, and each needs the other's
  // unlock and view grant.
  const cookie = (c: LinkCookie, slug: string) => [
    setCookieHeader(c, { secure, path: `${basePath}/${slug}` }),
    setCookieHeader(c, { secure, path: `${basePath}/v/${slug}` }),
  ];
  // The API, under PUBLIC_URL as the desktop uploaders' config has it (never CONTENT_URL's).
  const apiBase = `${deps.publicUrl}${API_BASE}`;

  /** POST /{slug} and /v/{slug}: the password form; back to where it was posted from. */
  const unlock = async ({
    request,
    reply,
    params,
    body,
  }: RouteContext<typeof API.unlockFile | typeof API.unlockPreview>) => {
    const { slug } = params;
    // Another site's page could post wrong passwords from its visitors' browsers, to hold
    // the link at its limit: the browser says where a form came from.
    if (request.headers['sec-fetch-site'] === 'cross-site') {
      return reply.status(403).headers(PAGE_HEADERS).send(crossSitePage());
    }
    const answer = await links.unlock(slug, body.password, linkRequest(request));
    // A page, as the form's browser expects, the same for a link missing or private.
    if (answer.kind === 'not-found') return sendNoSuchLink(reply);
    if (answer.kind !== 'unlocked') return refuse(reply, answer);
    if (answer.cookie) reply.header('set-cookie', cookie(answer.cookie, slug));
    // Relative (the last segment, /{slug} or /v/{slug} alike): back to the address posted
    // from, whatever prefix a proxy serves it under.
    return reply.header('cache-control', 'no-store').redirect(encodeURIComponent(slug), 303);
  };
  return [
    route(API.thumbnail, async ({ request, reply, params }) => {
      const answer = await links.thumbnail(params.code, linkRequest(request));
      if (answer.kind === 'not-found') throw new NotFoundError('Thumbnail not found');
      if (answer.kind === 'gone' || answer.kind === 'locked' || answer.kind === 'too-many') {
        return refuse(reply, answer);
      }
      reply.headers({
        ...baseHeaders(answer.cacheable, publicMaxAgeSeconds),
        etag: answer.etag,
        'content-type': 'image/webp',
      });
      if (answer.kind === 'not-modified') return reply.status(304).send();
      reply.status(200).header('content-length', String(answer.size));
      return send(reply, answer.body, 0, answer.size);
    }),
    route(API.file, async ({ request, reply, params }) => {
      const answer = await links.file(params.slug, linkRequest(request));
      if (answer.kind === 'not-found') {
        reply.callNotFound();
        return reply;
      }
      if (answer.kind === 'gone' || answer.kind === 'locked' || answer.kind === 'too-many') {
        return refuse(reply, answer);
      }
      if (answer.kind === 'redirect') {
        // For this request only: never cached past the presigned URL's life.
        return reply
          .header('cache-control', 'private, no-store')
          .header('referrer-policy', 'no-referrer')
          .redirect(answer.location, 302);
      }
      reply.headers(headersOf(answer.meta));
      if (answer.kind === 'not-modified') return reply.status(304).send();
      if (answer.kind === 'unsatisfiable') {
        return reply.status(416).header('content-range', `bytes */${answer.size}`).send();
      }
      const { range, length, size } = answer;
      reply.status(range ? 206 : 200).header('content-length', String(length));
      if (range) reply.header('content-range', `bytes ${range.start}-${range.end}/${size}`);
      if (answer.grant) reply.header('set-cookie', cookie(answer.grant, params.slug));
      return send(reply, answer.body, range?.start ?? 0, length);
    }),
    route(API.unlockFile, unlock),
    route(API.unlockPreview, unlock),
    route(API.preview, async ({ request, reply, params }) => {
      const req = linkRequest(request);
      const answer = await links.preview(params.slug, req);
      if (answer.kind === 'not-found') return sendNoSuchLink(reply);
      if (answer.kind !== 'page') return refuse(reply, answer);
      const { page } = answer;
      // The slug as opened, not the upload's other address: the cookies are that path's.
      const rawUrl = `${deps.contentUrl}/${params.slug}${signedQueryOf(request.query)}`;
      const withParam = (name: string) => `${rawUrl}${rawUrl.includes('?') ? '&' : '?'}${name}`;
      // A new one for every answer: a script must be the page's own to run (content-policy.ts).
      const nonce = crypto.randomBytes(16).toString('base64');
      reply.headers({
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': previewCsp(base.origin, nonce),
        'x-robots-tag': 'noindex',
        // The page shows the uploader's settings as they are now: checked on every use.
        'cache-control': page.visitor && isOpenToAll(page.row) ? 'no-cache' : 'private, no-store',
      });
      if (req.head) return reply.send();
      const pageUrl = `${deps.contentUrl}/v/${params.slug}`;
      const oembedUrl = `${apiBase}/oembed?url=${encodeURIComponent(pageUrl)}&format=json`;
      return reply.send(
        previewPageHtml({
          page,
          rawUrl,
          downloadUrl: withParam('download'),
          frameUrl: withParam('frame'),
          assets: deps.previewAssets,
          nonce,
          // A page that may not describe its upload names it only to who may open it.
          title: isDescribable(page.row) ? page.embed.title : page.row.original_filename,
          tags: embedTagsHtml({ page, pageUrl, rawUrl, oembedUrl }),
        }),
      );
    }),
    route(API.oembed, async ({ reply, query }) => {
      if (query.format === 'xml') {
        throw new NotImplementedError('format must be json: this server answers oEmbed in JSON');
      }
      const answer = await links.oembed(query);
      if (answer.kind === 'bad-url') throw new ValidationError(answer.message);
      if (answer.kind === 'not-found') throw new NotFoundError('No public link at this url');
      // Any page may ask (a chat app's web client); it says only what the page's tags say.
      reply.header('access-control-allow-origin', '*').header('cache-control', 'no-cache');
      return answer.body;
    }),
  ];
}
