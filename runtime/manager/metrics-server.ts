// `/metrics` over HTTPS, as KubeVirt serves it (https://POD:8443/metrics with the component's
// serving certificate). It listens only once there is a certificate, and a rotation replaces the
// server's secure context: new connections get the new certificate, established ones go on.
// Health does not wait for it: a component without its certificate yet still works and is ready.
import type { Server as HttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { SecureContextOptions } from "node:tls";
import Fastify, { type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import { Backoff } from "../clock/backoff.js";
import { type Clock, sleep, systemClock } from "../clock/clock.js";
import { firstMaterial, type TlsMaterial, type TlsMaterialSource } from "../tls/tls-material.js";
import type { Runnable } from "./runnable.js";

type HttpsApp = FastifyInstance<HttpsServer>;

export interface MetricsServerOptions {
  readonly host: string;
  /** 0 picks a free port (see `url`). */
  readonly port: number;
  readonly registry: Registry;
  readonly tls: TlsMaterialSource;
  /** Where the certificate comes from (`namespace/name` of its Secret), for the log. */
  readonly tlsOrigin: string;
  readonly log: Logger;
  readonly clock?: Clock;
}

export class MetricsServer implements Runnable {
  readonly name = "metrics-server";
  readonly needsLeaderElection = false;
  readonly #options: MetricsServerOptions;
  readonly #log: Logger;
  #url: string | undefined;

  constructor(options: MetricsServerOptions) {
    this.#options = options;
    this.#log = options.log.child({ server: "metrics", secret: options.tlsOrigin });
  }

  /** `https://host:port`, while it listens. */
  get url(): string | undefined {
    return this.#url;
  }

  async run(signal: AbortSignal): Promise<void> {
    if (this.#options.tls.current() === undefined) {
      this.#log.warn("no serving certificate yet: /metrics is served once its Secret exists");
    }
    const material = await firstMaterial(this.#options.tls, signal);
    if (material === undefined) return;
    const app = await this.#listen(material, signal);
    if (app === undefined) return;
    const server = app.server;
    const stopFollowing = this.#options.tls.onChange((next) => {
      try {
        server.setSecureContext(secureContextOf(next));
        this.#log.info("the serving certificate changed: new connections use it");
      } catch (error) {
        this.#log.error({ err: error }, "the new serving certificate was refused: keeping the previous one");
      }
    });
    try {
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
    } finally {
      stopFollowing();
      this.#url = undefined;
      // Scrapes are short, but a keep-alive connection would hold close() until it times out.
      server.closeAllConnections();
      await app.close();
    }
  }

  /**
   * Listens, retrying with backoff while the port cannot be had: metrics arrive late (with the
   * certificate), and a port taken then must not stop the component's real work. Undefined
   * when stopped first.
   */
  async #listen(material: TlsMaterial, signal: AbortSignal): Promise<HttpsApp | undefined> {
    const { host, port } = this.#options;
    const backoff = new Backoff({ initialMs: 1_000, maxMs: 30_000 });
    while (!signal.aborted) {
      // The latest certificate: it may have rotated while we waited.
      const app = this.#app(this.#options.tls.current() ?? material);
      try {
        await app.listen({ host, port });
        const address = app.server.address() as AddressInfo;
        const shownHost = address.address.includes(":") ? `[${address.address}]` : address.address;
        this.#url = `https://${shownHost}:${address.port}`;
        this.#log.info({ url: this.#url }, "serving /metrics over HTTPS");
        return app;
      } catch (error) {
        await app.close();
        const retryInMs = backoff.next();
        this.#log.error({ err: error, host, port, retryInMs }, "the metrics server cannot listen");
        await sleep(this.#options.clock ?? systemClock, retryInMs, signal);
      }
    }
    return undefined;
  }

  #app(material: TlsMaterial): HttpsApp {
    const app = Fastify({ logger: false, https: secureContextOf(material) });
    const { registry } = this.#options;
    app.get("/metrics", async (_request, reply) =>
      reply.type(registry.contentType).send(await registry.metrics()),
    );
    return app;
  }
}

function secureContextOf(material: TlsMaterial): SecureContextOptions {
  return { cert: material.certPem, key: material.keyPem, minVersion: "TLSv1.2" };
}
