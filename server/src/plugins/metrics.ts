/**
 * Prometheus metrics (prom-client), kept only when METRICS_TOKEN is set: without it nothing is
 * measured and no hook runs. Requests are counted when their connection is done with them
 * ('close' on the raw response), so aborted ones are counted too. The route label is the
 * route's pattern, never the URL.
 */
import { ROUTES } from '@upshot/contract';
import client from 'prom-client';
import { within } from '../lib/within.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export type Metrics = ReturnType<typeof createMetrics>;

/** How long a scrape waits for the database's count of chunked sessions. */
const COLLECT_TIMEOUT_MS = 1000;

/** Request bodies that are file bytes, and responses that are. */
const UPLOAD_ROUTES: ReadonlySet<string> = new Set([
  ROUTES.uploadFile.path,
  ROUTES.chunkedChunk.path,
]);
const SERVED_ROUTES: ReadonlySet<string> = new Set([ROUTES.file.path, ROUTES.thumbnail.path]);

export function createMetrics(deps: {
  /** Chunked sessions not yet completed (read from the database at each scrape). */
  openChunkedSessions: () => Promise<number>;
  /** The PostgreSQL pool's connections; null on SQLite (one connection in the process). */
  pool: () => { total: number; idle: number; waiting: number } | null;
}) {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requests = new client.Counter({
    name: 'upshot_http_requests_total',
    help: 'HTTP requests answered, by method, route and status (aborted: the client left first)',
    labelNames: ['method', 'route', 'status'],
    registers,
  });
  const duration = new client.Histogram({
    name: 'upshot_http_request_duration_seconds',
    help: 'Time from a request to the end of its answer, by method, route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers,
  });
  const uploadedBytes = new client.Counter({
    name: 'upshot_uploaded_bytes_total',
    help: 'Request body bytes of uploads and chunks that were stored',
    registers,
  });
  const servedBytes = new client.Counter({
    name: 'upshot_served_bytes_total',
    help: 'Bytes of files and thumbnails sent in full answers (aborted downloads not counted)',
    registers,
  });
  const uploadsInFlight = new client.Gauge({
    name: 'upshot_uploads_in_flight',
    help: 'Uploads and chunks being received now by this instance',
    registers,
  });
  new client.Gauge({
    name: 'upshot_chunked_sessions_open',
    help: 'Chunked upload sessions started and not yet completed, aborted or expired (all instances)',
    registers,
    async collect() {
      // The one series read from the database: when it does not answer in time, the scrape
      // still answers (with the last count) and readiness says what is wrong.
      await within(deps.openChunkedSessions(), COLLECT_TIMEOUT_MS).then(
        (open) => this.set(open),
        () => undefined,
      );
    },
  });
  const jobRuns = new client.Counter({
    name: 'upshot_job_runs_total',
    help: 'Periodic job runs on this instance, by job and outcome (ran, failed)',
    labelNames: ['job', 'outcome'],
    registers,
  });
  const jobDuration = new client.Histogram({
    name: 'upshot_job_duration_seconds',
    help: 'Periodic job run time, by job',
    labelNames: ['job'],
    buckets: [0.01, 0.1, 1, 10, 60, 600],
    registers,
  });
  new client.Gauge({
    name: 'upshot_db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle, waiting: queries waiting for one)',
    labelNames: ['state'],
    registers,
    collect() {
      const pool = deps.pool();
      if (!pool) return;
      for (const [state, value] of Object.entries(pool)) this.set({ state }, value);
    },
  });

  return {
    registry,
    jobRun: (job: string, outcome: 'ran' | 'failed', seconds: number) => {
      jobRuns.inc({ job, outcome });
      jobDuration.observe({ job }, seconds);
    },
    /** Measures every request from here on. */
    register(app: FastifyInstance): void {
      app.addHook('onRequest', (request, reply, done) => {
        measure(request, reply);
        done();
      });
    },
  };

  function measure(request: FastifyRequest, reply: FastifyReply): void {
    const started = process.hrtime.bigint();
    const route = request.routeOptions.url ?? 'unmatched';
    const upload = UPLOAD_ROUTES.has(route);
    if (upload) uploadsInFlight.inc();
    reply.raw.once('close', () => {
      if (upload) uploadsInFlight.dec();
      const res = reply.raw;
      const status = res.writableFinished ? String(res.statusCode) : 'aborted';
      const labels = { method: request.method, route, status };
      requests.inc(labels);
      duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      if (!res.writableFinished || res.statusCode >= 300) return;
      if (upload) {
        uploadedBytes.inc(Number(request.headers['content-length']) || 0);
      } else if (SERVED_ROUTES.has(route) && request.method === 'GET') {
        servedBytes.inc(Number(reply.getHeader('content-length')) || 0);
      }
    });
  }
}
