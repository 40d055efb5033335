import Fastify, { type FastifyInstance } from "fastify";

export interface HealthServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The process works (the event loop answers, the manager has not failed). */
  alive(): boolean;
  /** Ready to serve: caches synced. */
  ready(): { ready: boolean; detail: string };
}

/**
 * `/healthz` (liveness) and `/readyz` (readiness: caches synced), plain HTTP as kubelet probes
 * ask for them. Nothing else: /metrics is served over HTTPS only (metrics-server.ts), and a
 * probe must work before the component has its certificate.
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
  const address = await app.listen({ host: options.host, port: options.port });
  return { url: address, close: () => app.close() };
}
