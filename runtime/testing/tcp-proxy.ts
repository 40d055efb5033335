import { connect, createServer, type Server, type Socket } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";

/**
 * A loopback TCP proxy that tests put between a client and the API server, to cut the
 * client off (`block`: live connections are reset, new ones refused) while the server keeps
 * changing, then let it back in (`unblock`).
 */
export class TcpProxy {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #targetPort: number;
  #blocked = false;

  private constructor(server: Server, targetPort: number) {
    this.#server = server;
    this.#targetPort = targetPort;
  }

  static async start(targetPort: number): Promise<TcpProxy> {
    const server = createServer();
    const proxy = new TcpProxy(server, targetPort);
    server.on("connection", (socket) => proxy.#accept(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return proxy;
  }

  get port(): number {
    const address = this.#server.address();
    if (!address || typeof address === "string") throw new Error("the proxy is not listening");
    return address.port;
  }

  block(): void {
    this.#blocked = true;
    for (const socket of this.#sockets) socket.resetAndDestroy();
    this.#sockets.clear();
  }

  unblock(): void {
    this.#blocked = false;
  }

  async close(): Promise<void> {
    this.block();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #accept(client: Socket): void {
    if (this.#blocked) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(this.#targetPort, "127.0.0.1");
    this.#sockets.add(client);
    this.#sockets.add(upstream);
    const forget = (): void => {
      this.#sockets.delete(client);
      this.#sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", forget).on("close", forget);
    upstream.on("error", forget).on("close", forget);
    client.pipe(upstream);
    upstream.pipe(client);
  }
}

/** The same kubeconfig pointed at the proxy (the serving certificate covers 127.0.0.1). */
export function kubeConfigThroughProxy(source: KubeConfig, proxy: TcpProxy): KubeConfig {
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: source.clusters.map((cluster) => {
      const url = new URL(cluster.server);
      url.port = String(proxy.port);
      return { ...cluster, server: url.origin };
    }),
    users: source.users,
    contexts: source.contexts,
    currentContext: source.currentContext,
  });
  return config;
}
