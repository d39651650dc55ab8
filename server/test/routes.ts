/**
 * The routes Fastify registers while an app is built, recorded by an `onRoute` hook added the
 * moment the instance exists (Fastify's `fastify.initialization` diagnostics channel), so the
 * hook sees every route, those of the plugins included.
 */
import diagnostics from 'node:diagnostics_channel';
import type { Endpoint } from '@upshot/contract';
import type { FastifyInstance, RouteOptions } from 'fastify';

export type RecordedRoute = {
  methods: string[];
  url: string;
  /** The route-table entry the route was registered from, if any. */
  endpoint: Endpoint | undefined;
  /** A HEAD route Fastify added for a GET route by itself (exposeHeadRoutes). */
  automaticHead: boolean;
};

export async function recordRoutes<T>(
  build: () => Promise<T>,
): Promise<{ result: T; routes: RecordedRoute[] }> {
  const routes: RecordedRoute[] = [];
  const onRoute = (options: RouteOptions) => {
    const methods = [options.method].flat().map(String);
    routes.push({
      methods,
      url: options.url,
      endpoint: options.config?.endpoint,
      // Fastify declares the HEAD twin of a GET route right after it, with the same options.
      automaticHead:
        methods.length === 1 &&
        methods[0] === 'HEAD' &&
        routes.some((r) => r.url === options.url && r.methods.includes('GET')),
    });
  };
  const channel = diagnostics.channel('fastify.initialization');
  const onInit = (message: unknown) => {
    (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', onRoute);
  };
  channel.subscribe(onInit);
  try {
    return { result: await build(), routes };
  } finally {
    channel.unsubscribe(onInit);
  }
}
