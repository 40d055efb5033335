import { connect, createServer, type Server, type Socket } from "node:net";
import type { Logger } from "pino";

export interface ApiForwarderOptions {
  /** Where pods connect: the node bridge's address. */
  listenHost: string;
  /** 0 picks a free port. */
  listenPort: number;
  /** The API server, reachable from the node only (127.0.0.1). */
  target: { host: string; port: number };
  /** What is forwarded to, for the log ("the API server" unless given: the registry uses it too). */
  what?: string;
  log: Logger;
}

export interface ApiForwarder {
  host: string;
  port: number;
  close(): Promise<void>;
}

/**
 * A TCP relay from the node bridge to the API server, which listens on 127.0.0.1 only: what
 * the `kubernetes` Service's ClusterIP is to pods on a real cluster. TLS passes through
 * untouched (the API server's certificate names the bridge address).
 */
export async function startApiForwarder(options: ApiForwarderOptions): Promise<ApiForwarder> {
  const sockets = new Set<Socket>();
  const server = createServer((incoming) => relay(incoming, options, sockets));
  await listen(server, options.listenHost, options.listenPort);
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.listenPort;
  options.log.info(
    { host: options.listenHost, port, target: `${options.target.host}:${options.target.port}` },
    `forwarder to ${options.what ?? "the API server"} listening`,
  );
  return {
    host: options.listenHost,
    port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function relay(incoming: Socket, options: ApiForwarderOptions, sockets: Set<Socket>): void {
  const outgoing = connect(options.target.port, options.target.host);
  for (const socket of [incoming, outgoing]) {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  }
  incoming.on("error", () => outgoing.destroy());
  outgoing.on("error", (error) => {
    options.log.debug({ err: error }, `forwarding to ${options.what ?? "the API server"} failed`);
    incoming.destroy();
  });
  incoming.pipe(outgoing);
  outgoing.pipe(incoming);
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", (error) =>
      reject(new Error(`the API server forwarder cannot listen on ${host}:${port}`, { cause: error })),
    );
    server.listen({ host, port }, () => resolve());
  });
}
