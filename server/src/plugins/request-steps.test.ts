/**
 * The request steps: run in order before the route, an asynchronous step holds the ones after
 * it, a step that throws or rejects (with anything) refuses the request and stops the rest. And
 * they stay the one `onRequest` hook of every route the app has (request-steps.ts says why).
 */
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestContext } from '../../test/context.ts';
import { registerRequestSteps, type RequestStep } from './request-steps.ts';
import { checkAccess, registerRouteTable } from './route-table.ts';

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

  it('a step that throws after one that waited refuses the request', async () => {
    const answer = await get([
      waitingStep('a', 5),
      () => {
        throw new Error('changed its mind');
      },
    ]);
    expect(answer).toEqual({ status: 403, body: { refused: 'changed its mind' } });
  });

  it('a step that rejects with nothing still refuses the request', async () => {
    let after = 0;
    const answer = await get([() => Promise.reject(undefined), () => void after++]);
    expect(answer).toEqual({
      status: 403,
      body: { refused: 'a request step failed: undefined' },
    });
    expect(after).toBe(0);
  });

  it("are given the matched route's config", async () => {
    let seen: unknown;
    await get([(_request, _reply, route) => void (seen = route.url)]);
    expect(seen).toBe('/');
  });

  it('the route table will not register routes unless the access step runs', () => {
    const bare = Fastify();
    expect(() => registerRouteTable(bare, [])).toThrow(/checkAccess/);
    const stepped = Fastify();
    registerRequestSteps(stepped, [checkAccess]);
    expect(() => registerRouteTable(stepped, [])).not.toThrow();
  });

  it('are the only onRequest hook of every route of the app', async () => {
    const ctx = await createTestContext();
    try {
      const printed = ctx.app.printRoutes({ includeHooks: true, commonPrefix: false });
      const lists = [...printed.matchAll(/\(onRequest\) (\[.*\])/g)].map((m) => m[1]);
      expect(lists.length).toBeGreaterThan(50);
      expect(new Set(lists)).toEqual(new Set(['["requestSteps()"]']));
    } finally {
      await ctx.close();
    }
  });
});
