/**
 * What every request goes through before its route (its id echoed, its measurement, the
 * security headers, its credentials, the route's access rule), run in order by one `onRequest`
 * hook. Fastify runs two or more hooks of one kind through a chain of callbacks: on a minimal
 * route answering 10 KiB, a second hook cost 2-3 µs per request, about 17% of its throughput,
 * where one hook running the steps costs what one empty hook does (docs/PERFORMANCE.md).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The matched route's config (`url` is undefined when no route matched). */
export type RouteConfig = FastifyRequest['routeOptions']['config'];

/**
 * One step: returns nothing when it is done, or a promise when it has to wait (the next step
 * and the route wait for it). A step refuses the request by throwing or rejecting. The route's
 * config is read once for all the steps (Fastify makes `routeOptions` anew on every read).
 */
export type RequestStep = (
  request: FastifyRequest,
  reply: FastifyReply,
  route: RouteConfig,
) => void | Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The steps registerRequestSteps runs (the route table checks its access step is one). */
    requestSteps: readonly RequestStep[];
  }
}

export function registerRequestSteps(app: FastifyInstance, steps: readonly RequestStep[]): void {
  app.decorate('requestSteps', steps);
  app.addHook('onRequest', function requestSteps(request, reply, done) {
    runSteps(steps, 0, request, reply, request.routeOptions.config, done);
  });
}

function runSteps(
  steps: readonly RequestStep[],
  from: number,
  request: FastifyRequest,
  reply: FastifyReply,
  route: RouteConfig,
  done: (err?: Error) => void,
): void {
  try {
    for (let i = from; i < steps.length; i++) {
      const waiting = steps[i]!(request, reply, route);
      if (waiting) {
        waiting.then(
          () => runSteps(steps, i + 1, request, reply, route, done),
          (err: unknown) => done(refusal(err)),
        );
        return;
      }
    }
  } catch (err) {
    done(refusal(err));
    return;
  }
  done();
}

/** What a step threw, as an error: a falsy one must still refuse the request. */
function refusal(err: unknown): Error {
  return err instanceof Error ? err : new Error(`a request step failed: ${String(err)}`);
}
