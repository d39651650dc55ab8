/**
 * The background task runner: failures recorded and retried with backoff, then left alone,
 * one bad task never in the way of the others, leases between runners, and through the app,
 * a digest task whose file is gone.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { completeChunked, sendAll, sessionRow, startChunked } from '../../test/chunked-uploads.ts';
import { signIn } from '../../test/users.ts';
import { createTasksRepository } from './tasks-repository.ts';
import { createBackground, LEASE_MS, MAX_ATTEMPTS } from './tasks.ts';

type LogCall = { level: string; fields: Record<string, unknown>; msg: unknown };

/** A logger that records what it is told. */
function recordingLog() {
  const calls: LogCall[] = [];
  const at =
    (level: string) =>
    (fields: unknown, msg?: unknown): void => {
      calls.push({
        level,
        fields:
          typeof fields === 'object' && fields !== null ? (fields as Record<string, unknown>) : {},
        msg: typeof fields === 'string' ? fields : msg,
      });
    };
  const log: Record<string, unknown> = {
    level: 'info',
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    debug: at('debug'),
    trace: at('trace'),
    fatal: at('fatal'),
    silent: () => {},
  };
  log.child = () => log;
  return { log: log as unknown as FastifyBaseLogger, calls };
}

async function taskRow(ctx: TestContext, kind: string, subject: string) {
  return ctx.handle.db
    .selectFrom('tasks')
    .selectAll()
    .where('kind', '=', kind)
    .where('subject_id', '=', subject)
    .executeTakeFirst();
}

describe('the task runner', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());
  // Each case starts from an empty queue: a runner takes every due task of its kinds.
  beforeEach(async () => {
    await ctx.handle.db.deleteFrom('tasks').execute();
  });

  function runner() {
    const { log, calls } = recordingLog();
    const tasks = createTasksRepository(ctx.handle.db);
    const background = createBackground({ tasks, clock: ctx.clock, log });
    const ran: string[] = [];
    background.register('test.ok', {
      subject: 'uploadId',
      run: async (id) => {
        ran.push(id);
      },
    });
    background.register('test.fail', {
      subject: 'uploadId',
      run: async (id) => {
        ran.push(id);
        throw new Error(`no bytes for ${id}`);
      },
    });
    background.register('test.user', {
      subject: 'userId',
      run: async (id) => {
        ran.push(id);
        throw new Error('mail server down');
      },
    });
    return { background, tasks, calls, ran };
  }
  const nowIso = (offsetMs = 0) => new Date(ctx.clock.now().getTime() + offsetMs).toISOString();
  const id = () => crypto.randomUUID();

  it('runs the others when one fails, records the failure and retries it after its backoff', async () => {
    const { background, tasks, calls, ran } = runner();
    const bad = id();
    const good = [id(), id(), id(), id()];
    // The failing one first in line.
    await tasks.enqueue('test.fail', bad, nowIso(-1000));
    for (const g of good) await tasks.enqueue('test.ok', g, nowIso());

    expect(await background.drain()).toBe(5);
    expect(ran[0]).toBe(bad);
    expect([...ran].sort()).toEqual([bad, ...good].sort());
    for (const g of good) expect(await taskRow(ctx, 'test.ok', g)).toBeUndefined();
    const failed = await taskRow(ctx, 'test.fail', bad);
    expect(failed).toMatchObject({
      attempts: 1,
      last_error: `no bytes for ${bad}`,
      locked_until: null,
    });
    expect(failed!.run_after > nowIso()).toBe(true);
    const warnings = calls.filter((c) => c.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.fields).toMatchObject({ task: 'test.fail', uploadId: bad, attempt: 1 });
    expect((warnings[0]!.fields.err as Error).message).toBe(`no bytes for ${bad}`);
    expect(calls.filter((c) => c.level === 'error')).toEqual([]);

    // Not before its backoff...
    ran.length = 0;
    expect(await background.drain()).toBe(0);
    expect(ran).toEqual([]);
    expect((await taskRow(ctx, 'test.fail', bad))?.attempts).toBe(1);
    // ...but after it.
    ctx.clock.advance(60_000 + 1000);
    expect(await background.drain()).toBe(1);
    expect(ran).toEqual([bad]);
    expect((await taskRow(ctx, 'test.fail', bad))?.attempts).toBe(2);
  });

  it('names the subject under the field its handler gives', async () => {
    const { background, tasks, calls } = runner();
    const user = id();
    await tasks.enqueue('test.user', user, nowIso());
    await background.drain();
    const warning = calls.find((c) => c.level === 'warn');
    expect(warning?.fields).toMatchObject({ task: 'test.user', userId: user, attempt: 1 });
    expect(warning?.fields).not.toHaveProperty('uploadId');
  });

  it('gives up after MAX_ATTEMPTS failures, logging an error, and never runs it again', async () => {
    const { background, tasks, calls, ran } = runner();
    const bad = id();
    await tasks.enqueue('test.fail', bad, nowIso());
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect(await background.drain()).toBe(1);
      expect((await taskRow(ctx, 'test.fail', bad))?.attempts).toBe(attempt);
      // Past any backoff.
      ctx.clock.advance(3 * 60 * 60_000);
    }
    expect(ran).toEqual(Array(MAX_ATTEMPTS).fill(bad));
    expect(calls.filter((c) => c.level === 'warn')).toHaveLength(MAX_ATTEMPTS - 1);
    const errors = calls.filter((c) => c.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.fields).toMatchObject({
      task: 'test.fail',
      uploadId: bad,
      attempt: MAX_ATTEMPTS,
    });

    ctx.clock.advance(7 * 24 * 60 * 60_000);
    expect(await background.drain()).toBe(0);
    expect(ran).toHaveLength(MAX_ATTEMPTS);
    expect(await taskRow(ctx, 'test.fail', bad)).toMatchObject({
      attempts: MAX_ATTEMPTS,
      last_error: `no bytes for ${bad}`,
    });
  });

  it('keeps one row when the same task is enqueued twice', async () => {
    const { background, tasks, ran } = runner();
    const subject = id();
    await tasks.enqueue('test.ok', subject, nowIso());
    await tasks.enqueue('test.ok', subject, nowIso(10));
    const rows = await ctx.handle.db
      .selectFrom('tasks')
      .select('id')
      .where('kind', '=', 'test.ok')
      .where('subject_id', '=', subject)
      .execute();
    expect(rows).toHaveLength(1);
    await background.drain();
    expect(ran).toEqual([subject]);
  });

  it('does not take a task another runner holds, and takes one whose lease ran out', async () => {
    const { background, ran } = runner();
    const held = id();
    const expired = id();
    const insert = (subject: string, lockedUntil: string) =>
      ctx.handle.db
        .insertInto('tasks')
        .values({
          id: id(),
          kind: 'test.ok',
          subject_id: subject,
          attempts: 1,
          run_after: nowIso(-60_000),
          locked_until: lockedUntil,
          created_at: nowIso(-60_000),
        })
        .execute();
    await insert(held, nowIso(5 * 60_000));
    await insert(expired, nowIso(-1000));

    expect(await background.drain()).toBe(1);
    expect(ran).toEqual([expired]);
    expect(await taskRow(ctx, 'test.ok', expired)).toBeUndefined();
    expect(await taskRow(ctx, 'test.ok', held)).toMatchObject({ attempts: 1 });

    ctx.clock.advance(5 * 60_000 + 1000);
    expect(await background.drain()).toBe(1);
    expect(ran).toEqual([expired, held]);
    expect(await taskRow(ctx, 'test.ok', held)).toBeUndefined();
  });

  it('renews the lease of a task that runs long, so no other runner takes it meanwhile', async () => {
    let release = () => {};
    const started: string[] = [];
    const slowRunner = () => {
      const { log } = recordingLog();
      const tasks = createTasksRepository(ctx.handle.db);
      const background = createBackground({ tasks, clock: ctx.clock, log, renewEveryMs: 20 });
      background.register('test.slow', {
        subject: 'uploadId',
        run: async (subject) => {
          started.push(subject);
          await new Promise<void>((resolve) => (release = resolve));
        },
      });
      return { background, tasks };
    };
    const first = slowRunner();
    const subject = id();
    await first.tasks.enqueue('test.slow', subject, nowIso(-1000));
    const running = first.background.drain();
    await vi.waitFor(() => expect(started).toEqual([subject]));
    const leasedUntil = (await taskRow(ctx, 'test.slow', subject))!.locked_until!;

    // Past the first lease: the runner, still at it, has renewed it from the new time.
    ctx.clock.advance(LEASE_MS + 1000);
    await vi.waitFor(async () =>
      expect((await taskRow(ctx, 'test.slow', subject))!.locked_until! > nowIso()).toBe(true),
    );
    expect((await taskRow(ctx, 'test.slow', subject))!.locked_until! > leasedUntil).toBe(true);
    const second = slowRunner();
    expect(await second.background.drain()).toBe(0);
    expect(started).toEqual([subject]);

    release();
    expect(await running).toBe(1);
    expect(await taskRow(ctx, 'test.slow', subject)).toBeUndefined();
  });

  it('is not held up by tasks of a kind it has no handler for', async () => {
    // Another instance (a newer version) may enqueue kinds this one does not know yet.
    const { background, tasks, ran } = runner();
    for (let i = 0; i < 25; i++) await tasks.enqueue('test.unknown', id(), nowIso(-60_000));
    const subject = id();
    await tasks.enqueue('test.ok', subject, nowIso());
    await background.drain();
    expect(ran).toEqual([subject]);
    expect(await taskRow(ctx, 'test.ok', subject)).toBeUndefined();
  });
});

describe('a digest task through the app', () => {
  const SMALL = 64 * 1024;
  let ctx: TestContext;
  /** Storage keys whose file disappears once committed (a disk or an operator lost it). */
  const lose = new Set<string>();
  beforeAll(async () => {
    ctx = await createTestContext(
      {},
      {},
      {
        chunkSize: SMALL,
        wrapStorage: (storage) => ({
          ...storage,
          async completeMultipart(multipartId, key, parts, totalSize) {
            await storage.completeMultipart(multipartId, key, parts, totalSize);
            if (lose.has(key)) fs.rmSync(path.join(ctx.dataDir, 'files', key));
          },
        }),
      },
    );
  });
  afterAll(() => ctx.close());

  const sha256Of = async (uploadId: string) =>
    (
      await ctx.handle.db
        .selectFrom('uploads')
        .select('sha256')
        .where('id', '=', uploadId)
        .executeTakeFirstOrThrow()
    ).sha256;

  it("fails the task of an upload whose file is gone, with its id, and fills in another's", async () => {
    const { auth } = await signIn(ctx);
    const lostData = crypto.randomBytes(SMALL * 2 + 10);
    const keptData = crypto.randomBytes(SMALL + 20);

    const lostSession = await startChunked(ctx, auth, lostData, SMALL);
    lose.add((await sessionRow(ctx, lostSession))!.storage_key);
    await sendAll(ctx, auth, lostSession, lostData, SMALL);
    const keptSession = await startChunked(ctx, auth, keptData, SMALL);
    await sendAll(ctx, auth, keptSession, keptData, SMALL);

    const lost = await completeChunked(ctx, auth, lostSession);
    expect(lost.statusCode).toBe(201);
    const kept = await completeChunked(ctx, auth, keptSession);
    expect(kept.statusCode).toBe(201);
    const lostId: string = lost.json().upload.id;
    const keptId: string = kept.json().upload.id;

    // The runs the uploads kicked off.
    const keptDigest = crypto.createHash('sha256').update(keptData).digest('hex');
    await vi.waitFor(async () => {
      expect(await sha256Of(keptId)).toBe(keptDigest);
      const task = await taskRow(ctx, 'upload.sha256', lostId);
      expect(task?.attempts).toBe(1);
      expect(task?.last_error).toMatch(/ENOENT/);
      expect(await taskRow(ctx, 'upload.sha256', keptId)).toBeUndefined();
    });
    expect(await sha256Of(lostId)).toBeNull();
    // Nothing else is due; this waits for a run the uploads started that may still be ending.
    await ctx.background.drain();
    expect((await taskRow(ctx, 'upload.sha256', lostId))?.attempts).toBe(1);

    // Both due in one run, the failing one first: the other is still done.
    ctx.clock.advance(60_000 + 1000);
    await ctx.handle.db
      .updateTable('uploads')
      .set({ sha256: null })
      .where('id', '=', keptId)
      .execute();
    const now = ctx.clock.now().toISOString();
    await ctx.handle.db
      .insertInto('tasks')
      .values({
        id: crypto.randomUUID(),
        kind: 'upload.sha256',
        subject_id: keptId,
        run_after: now,
        created_at: now,
      })
      .execute();
    expect(await ctx.background.drain()).toBe(2);
    expect(await sha256Of(keptId)).toBe(keptDigest);
    expect(await taskRow(ctx, 'upload.sha256', keptId)).toBeUndefined();
    const task = await taskRow(ctx, 'upload.sha256', lostId);
    expect(task).toMatchObject({ subject_id: lostId, attempts: 2 });
    expect(task?.last_error).toMatch(/ENOENT/);
    expect(await sha256Of(lostId)).toBeNull();
  });
});
