/**
 * The local end of `virtctl vnc`: a TCP listener on 127.0.0.1 (a port given, or any free one);
 * each connection gets a vnc WebSocket of its own (VNC allows several viewers), so a viewer that
 * reconnects simply connects again. A WebSocket that cannot be opened is reported on one line
 * and that connection closed; the proxy keeps listening.
 */
import { createServer, type Server, type Socket } from "node:net";
import type { ApiClient } from "../api/api-client.js";
import { explainFailure } from "../api/explain-failure.js";
import { openVmiStream } from "../streams/stream-paths.js";
import { bridgeTcpToWebSocket } from "./tcp-websocket-bridge.js";

export interface VncProxyOptions {
  readonly api: ApiClient;
  readonly name: string;
  readonly port: number;
  readonly pingIntervalMs: number;
  /** One line for the user (stderr). */
  readonly say: (line: string) => void;
}

export interface VncProxy {
  readonly port: number;
  close(): Promise<void>;
}

export const LOOPBACK = "127.0.0.1";

export async function startVncProxy(options: VncProxyOptions): Promise<VncProxy> {
  const connections = new Set<Socket>();
  const server: Server = createServer({ pauseOnConnect: true }, (tcp) => {
    connections.add(tcp);
    tcp.once("close", () => connections.delete(tcp));
    void serveConnection(options, tcp);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, LOOPBACK, () => {
      server.removeListener("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    port,
    close: async () => {
      for (const tcp of connections) tcp.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function serveConnection(options: VncProxyOptions, tcp: Socket): Promise<void> {
  // Until the WebSocket is open, the viewer's bytes wait in the kernel (pauseOnConnect).
  tcp.on("error", () => tcp.destroy());
  let socket: Awaited<ReturnType<typeof openVmiStream>>;
  try {
    socket = await openVmiStream(options.api, options.name, "vnc");
  } catch (error) {
    const failure = await explainFailure(options.api, error, {
      action: `cannot open the VNC of ${options.name}`,
      resource: "virtualmachineinstances",
      name: options.name,
    });
    options.say(`error: ${failure.message}`);
    tcp.destroy();
    return;
  }
  if (tcp.destroyed) {
    socket.close(1000, "the VNC client disconnected");
    return;
  }
  await bridgeTcpToWebSocket(tcp, socket, options.pingIntervalMs);
}
