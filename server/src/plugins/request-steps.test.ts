/**
 * The request steps: run in order before the route, an asynchronous step holds the ones after
 * it, a step that throws or rejects refuses the request and stops the rest. And they stay one
 * hook: no plugin or module adds an `onRequest` hook of its own (request-steps.ts says why).
 */
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerRequestSteps, type RequestStep } from './request-steps.ts';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const ran = new WeakMap<FastifyRequest, string[]>();
const record = (request: FastifyRequest, what: string) => {
  const list = ran.get(request) ?? [];
  list.push(what);
  ran.set(request, list);
};
const step =
  (name: string): RequestStep =>
  (request) =>
    record(request, name);
const waitingStep =
  (name: string, ms: number): RequestStep =>
  async (request) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    record(request, name);
  };

/** GET / on a server running these steps: what ran, in order, or the refusal. */
async function get(steps: RequestStep[]): Promise<{ status: number; body: unknown }> {
  app = Fastify();
  registerRequestSteps(app, steps);
  app.get('/', async (request) => ({ ran: [...(ran.get(request) ?? []), 'route'] }));
  app.setErrorHandler((err: Error, _request, reply) => {
    void reply.status(403).send({ refused: err.message });
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const res = await fetch(url);
  return { status: res.status, body: await res.json() };
}

describe('request steps', () => {
  it('run in order before the route, an asynchronous one holding those after it', async () => {
    expect(
      await get([step('a'), waitingStep('b', 20), step('c'), waitingStep('d', 1), step('e')]),
    ).toEqual({ status: 200, body: { ran: ['a', 'b', 'c', 'd', 'e', 'route'] } });
  });

  it('a step that throws refuses the request; the steps after it and the route do not run', async () => {
    let after = 0;
    const answer = await get([
      step('a'),
      () => {
        throw new Error('no entry');
      },
      () => void after++,
    ]);
    expect(answer).toEqual({ status: 403, body: { refused: 'no entry' } });
    expect(after).toBe(0);
  });

  it('a step that rejects after waiting refuses the request; the rest do not run', async () => {
    let after = 0;
    const answer = await get([
      waitingStep('a', 5),
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        throw new Error('not now');
      },
      () => void after++,
    ]);
    expect(answer).toEqual({ status: 403, body: { refused: 'not now' } });
    expect(after).toBe(0);
  });

  it('are the only onRequest hook: no plugin or module adds one of its own', () => {
    const src = path.resolve(import.meta.dirname, '..');
    const hooks: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/(?<!\.test)\.ts$/.test(entry.name)) {
          const text = fs.readFileSync(file, 'utf8');
          const found = text.match(/addHook\(\s*['"]onRequest['"]|\bonRequest\s*:/g) ?? [];
          hooks.push(...found.map(() => path.relative(src, file)));
        }
      }
    };
    walk(src);
    expect(hooks).toEqual([path.join('plugins', 'request-steps.ts')]);
  });
});
