/**
 * `/healthz` (the process answers), `/readyz` (ready to serve: certificates and caches in
 * place) and `/metrics` (Prometheus text from virt-api's own registry), as the other
 * components serve them; open to anyone, like KubeVirt's. `/apis/subresources.kubevirt.io/v1/healthz`
 * is KubeVirt's readiness path for virt-api, answered the same as /readyz.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import type { Registry } from "prom-client";
import { GROUP_VERSION_PATH } from "../subresources/request-target.js";

export type Readiness = () => { ready: boolean; detail: string };

export function registerHealthRoutes(app: FastifyInstance, registry: Registry, readiness: Readiness): void {
  app.get("/healthz", async (_request, reply) => reply.type("text/plain").send("ok"));
  const ready = async (_request: unknown, reply: FastifyReply) => {
    const { ready, detail } = readiness();
    return reply
      .code(ready ? 200 : 503)
      .type("text/plain")
      .send(ready ? "ok" : detail);
  };
  app.get("/readyz", ready);
  app.get(`${GROUP_VERSION_PATH}/healthz`, ready);
  app.get("/metrics", async (_request, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()),
  );
}
