import Fastify, { type FastifyInstance } from "fastify";
import type { Registry } from "prom-client";

export interface HealthServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  registry: Registry;
  /** The process works (the event loop answers, the manager has not failed). */
  alive(): boolean;
  /** Ready to serve: caches synced. */
  ready(): { ready: boolean; detail: string };
}

/**
 * `/healthz` (liveness), `/readyz` (readiness: caches synced) and `/metrics` (Prometheus text
 * from the manager's own registry), as kubelet probes and Prometheus expect them.
 */
export async function startHealthServer(
  options: HealthServerOptions,
): Promise<{ url: string; close(): Promise<void> }> {
  const app: FastifyInstance = Fastify({ logger: false });
  app.get("/healthz", async (_request, reply) => {
    const alive = options.alive();
    return reply
      .code(alive ? 200 : 500)
      .type("text/plain")
      .send(alive ? "ok" : "stopped");
  });
  app.get("/readyz", async (_request, reply) => {
    const { ready, detail } = options.ready();
    return reply
      .code(ready ? 200 : 503)
      .type("text/plain")
      .send(ready ? "ok" : detail);
  });
  app.get("/metrics", async (_request, reply) => {
    const text = await options.registry.metrics();
    return reply.type(options.registry.contentType).send(text);
  });
  const address = await app.listen({ host: options.host, port: options.port });
  return { url: address, close: () => app.close() };
}
