/** Builds the app from its dependencies: the plugins, then every module, in one list. */
import { CHUNK_SIZE, MAX_SIMPLE_UPLOAD_BYTES } from '@upshot/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { dialectOf, type Db, type PoolUse } from './db/database.ts';
import { uploadSearch } from './db/search.ts';
import { createJobRunner, type Job } from './jobs/scheduler.ts';
import { createTasksRepository } from './jobs/tasks-repository.ts';
import { createBackground, type Background } from './jobs/tasks.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { createMailer, type Mailer } from './lib/mailer.ts';
import { loggableUrl } from './lib/logger.ts';
import { deriveKeys } from './lib/crypto.ts';
import { createFileHasher } from './lib/file-hasher.ts';
import { createAccessRequestsModule } from './modules/access-requests/index.ts';
import { createAuditModule } from './modules/audit/index.ts';
import { createAuthModule } from './modules/auth/index.ts';
import { createChunkedUploadsModule } from './modules/chunked-uploads/index.ts';
import { createPreferencesModule } from './modules/preferences/index.ts';
import { createStatsModule } from './modules/stats/index.ts';
import { createSystemModule } from './modules/system/index.ts';
import { createTagsModule } from './modules/tags/index.ts';
import { createLinksModule, createLinkUrls, sendNoSuchLink } from './modules/links/index.ts';
import { createUploadsModule, ffmpegAvailable, ffprobeBeside } from './modules/uploads/index.ts';
import { createUploadersModule } from './modules/uploaders/index.ts';
import { createAccounts, createUsersModule } from './modules/users/index.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerBodyIdleTimeout } from './plugins/body-timeout.ts';
import { contentRequests, registerContentOrigin } from './plugins/content-origin.ts';
import { registerErrorHandler, sendError } from './plugins/errors.ts';
import { registerFormBody } from './plugins/form-body.ts';
import { registerMultipart } from './plugins/multipart.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { registerRequestId, requestIdOf } from './plugins/request-context.ts';
import { registerRouteTable } from './plugins/route-table.ts';
import { registerSecurityHeaders, securityHeaders } from './plugins/security.ts';
import { readPreviewAssets, registerWebApp } from './plugins/web-app.ts';
import { createLocalStorage } from './storage/local.ts';
import type { Storage } from './storage/storage.ts';

export type AppDeps = {
  config: Config;
  db: Db;
  secretKey: string;
  clock?: Clock;
  storage?: Storage;
  /** Chunk size of the chunked protocol; only tests make it smaller than CHUNK_SIZE. */
  chunkSize?: number;
  /** How sign-in pauses for a limited account (tests pass one that does not wait). */
  sleep?: (ms: number) => Promise<void>;
  /** How email goes out (tests pass one with a short timeout); by default SMTP_URL's. */
  mailer?: Mailer;
  /** The PostgreSQL pool's use, for the metrics (boot passes the database handle's). */
  poolUse?: () => PoolUse | null;
  /** Where log lines go; standard output by default (tests read them). */
  logStream?: NodeJS.WritableStream;
};

export type App = FastifyInstance;
export type Built = Awaited<ReturnType<typeof buildApp>>;

/**
 * TRUST_PROXY believes the one proxy in front: the address it appended last to
 * X-Forwarded-For, never one a client wrote in the header itself (proxy-addr's hop count 1).
 */
const oneProxyHop = (_address: string, hop: number) => hop < 1;

/** ffmpeg and the ffprobe beside it, when both run; else videos get no thumbnails. */
function videoTools(ffmpeg: string) {
  if (!ffmpeg) return null;
  const ffprobe = ffprobeBeside(ffmpeg);
  return ffmpegAvailable(ffmpeg) && ffmpegAvailable(ffprobe) ? { ffmpeg, ffprobe } : null;
}

export async function buildApp(deps: AppDeps) {
  const { config, db } = deps;
  const clock = deps.clock ?? systemClock;
  const keys = deriveKeys(deps.secretKey);
  const storage = deps.storage ?? createLocalStorage(config.dataDir);
  const chunkSize = deps.chunkSize ?? CHUNK_SIZE;

  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            ...(deps.logStream ? { stream: deps.logStream } : {}),
            serializers: {
              req: (req) => ({
                method: req.method,
                url: loggableUrl(req.url),
                host: req.host,
                remoteAddress: req.ip,
                remotePort: req.socket?.remotePort,
              }),
            },
          },
    // A client's or proxy's X-Request-Id when it is a plain token, else a new one; echoed back.
    genReqId: requestIdOf,
    trustProxy: config.trustProxy ? oneProxyHop : false,
    // A URL the router cannot decode, a parameter past maxParamLength: the one error body too.
    frameworkErrors: sendError,
    // While draining (SIGTERM), a request that arrives on a keep-alive connection still open
    // (a proxy's, busy when the signal came) is answered, with Connection: close, rather than
    // refused with a 503: a proxy does not send a request on to another instance once sent.
    return503OnClosing: false,
  });
  const log = app.log;
  const fileHasher = createFileHasher();
  const background: Background = createBackground({
    tasks: createTasksRepository(db),
    clock,
    log,
  });
  // prom-client is loaded only where metrics are on (decision 19).
  const metrics = config.metricsToken
    ? (await import('./plugins/metrics.ts')).createMetrics({
        openChunkedSessions: () => chunkedUploads.service.countOpen(),
        pool: deps.poolUse ?? (() => null),
      })
    : null;
  const jobRunner = createJobRunner({ db, clock, log, onRun: metrics?.jobRun });
  const urls = createLinkUrls({
    publicUrl: config.publicUrl,
    contentUrl: config.contentUrl,
    signingKey: keys.signing,
  });

  // The modules, each built from what it uses; later ones use earlier ones' services.
  const audit = createAuditModule({ db, clock });
  // Sign-in reads users, and the users module manages them with sign-in's help: the users
  // service comes first, the module once sign-in, uploads and chunked uploads are made.
  const accounts = createAccounts({
    db,
    audit: audit.service,
    keys,
    clock,
    defaultQuotaBytes: config.defaultQuotaBytes,
  });
  const auth = createAuthModule({ db, users: accounts, clock, sleep: deps.sleep });
  const preferences = createPreferencesModule({ db });
  const uploads = createUploadsModule({
    db,
    search: uploadSearch(dialectOf(db)),
    storage,
    clock,
    urls,
    fileHasher,
    video: videoTools(config.ffmpegPath),
    kickTasks: background.kick,
    uploadDefaults: preferences.service.uploadDefaults,
    audit: audit.service,
    log,
  });
  const chunkedUploads = createChunkedUploadsModule({
    db,
    uploads: uploads.service,
    storage,
    clock,
    present: uploads.present,
    maxUploadBytes: config.maxUploadBytes,
    chunkSize,
    log,
  });
  const tags = createTagsModule({
    db,
    clock,
    uploads: uploads.service,
    present: uploads.present,
  });
  const stats = createStatsModule({ db, clock, urls });
  const mailer =
    deps.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, log });
  const users = createUsersModule({
    users: accounts,
    credentials: auth.service,
    audit: audit.service,
    uploads: uploads.service,
    chunked: chunkedUploads.service,
    mailer,
    publicUrl: config.publicUrl,
  });
  const accessRequests = createAccessRequestsModule({
    db,
    audit: audit.service,
    users: accounts,
    management: users.management,
    auth: auth.service,
    preferences: preferences.service,
    mailer,
    clock,
    publicUrl: config.publicUrl,
    log,
  });
  const uploaders = createUploadersModule({
    users: accounts,
    publicUrl: config.publicUrl,
    linkStyleOf: preferences.service.linkStyle,
  });
  const previewAssets = readPreviewAssets(config.webDistDir);
  const links = createLinksModule({
    db,
    storage,
    urls,
    clock,
    presigned: config.storage.driver === 's3' && config.storage.s3.serve === 'presigned',
    publicMaxAgeSeconds: config.publicMaxAgeSeconds,
    audit: audit.service,
    auth: auth.service,
    previewAssets,
    embedSettings: preferences.service.embedSettings,
    log,
  });
  const system = createSystemModule({
    db,
    storage,
    metrics: metrics && config.metricsToken ? { metrics, token: config.metricsToken } : null,
    config: {
      publicUrl: config.publicUrl,
      contentUrl: config.contentUrl,
      chunkSize,
      maxSimpleUploadBytes: MAX_SIMPLE_UPLOAD_BYTES,
      maxUploadBytes: config.maxUploadBytes,
      version: config.version,
    },
    openapi: () => app.swagger() as unknown as Record<string, unknown>,
  });
  const modules = {
    system,
    auth,
    users,
    preferences,
    uploads,
    chunkedUploads,
    tags,
    stats,
    uploaders,
    accessRequests,
    audit,
    links,
  };
  const all = Object.values(modules);

  registerErrorHandler(app);
  const security = securityHeaders({ contentUrl: config.contentUrl });
  // Every request's hooks, in this order; each table route then checks its access rule.
  registerRequestId(app);
  registerBodyIdleTimeout(app, config.bodyIdleTimeoutMs);
  metrics?.register(app);
  registerSecurityHeaders(app, security);
  const isContentRequest = contentRequests(config);
  registerContentOrigin(app, {
    publicUrl: config.publicUrl,
    contentUrl: config.contentUrl,
    isContentRequest,
    contentFiles: previewAssets.files,
  });
  registerAuth(app, auth.service);
  registerMultipart(app);
  registerFormBody(app);
  await registerOpenApi(app, { publicUrl: config.publicUrl, version: config.version });
  registerRouteTable(
    app,
    all.flatMap((m) => m.routes),
  );
  await registerWebApp(app, config.webDistDir, security, {
    isContentRequest,
    notFound: sendNoSuchLink,
  });

  for (const m of all) {
    for (const [kind, handler] of Object.entries(m.tasks)) background.register(kind, handler);
  }
  const jobs: Job[] = [
    ...all.flatMap((m) => m.jobs),
    { name: 'background-tasks', intervalMs: 60 * 1000, run: () => background.drain() },
  ];

  app.addHook('onClose', async () => {
    // The hasher first: a task hashing a large file fails at once (to be retried after the
    // restart) instead of holding the shutdown for minutes.
    await fileHasher.close();
    await background.close();
    // Views counted since the last batch: committed before the database closes.
    await links.service.closeViews();
  });
  return { app, modules, jobs, jobRunner, background };
}
