/**
 * The local ends of `virtctl port-forward`: a TCP listener per port, each connection a tunnel of
 * its own; a UDP port, one tunnel per local sender (its datagrams and the answers to it). A tunnel
 * that cannot be opened is reported on one line and that connection dropped; listening goes on.
 */
import { createSocket, type RemoteInfo, type Socket as UdpSocket } from "node:dgram";
import { createServer, isIPv6, type Server, type Socket } from "node:net";
import type { WebSocket } from "ws";
import { CliError, oneLine } from "../errors/cli-error.js";
import type { ForwardedPort } from "./forwarded-ports.js";
import { bridgeToWebSocket } from "./stream-bridge.js";

export interface ForwarderOptions {
  readonly address: string;
  readonly port: ForwardedPort;
  readonly openTunnel: () => Promise<WebSocket>;
  readonly pingIntervalMs: number;
  /** One line for the user (stderr). */
  readonly say: (line: string) => void;
}

export interface LocalForwarder {
  /** The local port bound (the one asked for, or the free one found for 0). */
  readonly port: number;
  close(): Promise<void>;
}

/** A UDP sender that sent nothing for this long gets its tunnel closed. */
const UDP_IDLE_MS = 120_000;

export function startForwarder(options: ForwarderOptions): Promise<LocalForwarder> {
  return options.port.protocol === "tcp" ? startTcpForwarder(options) : startUdpForwarder(options);
}

async function startTcpForwarder(options: ForwarderOptions): Promise<LocalForwarder> {
  const connections = new Set<Socket>();
  // allowHalfOpen: a client's FIN must not end the tunnel before the guest answered.
  const server: Server = createServer({ pauseOnConnect: true, allowHalfOpen: true }, (tcp) => {
    connections.add(tcp);
    tcp.once("close", () => connections.delete(tcp));
    void serveTcp(options, tcp);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) => reject(listenError(options, error)));
    server.listen(options.port.local, options.address, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : options.port.local,
    close: async () => {
      for (const tcp of connections) tcp.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function serveTcp(options: ForwarderOptions, tcp: Socket): Promise<void> {
  tcp.on("error", () => tcp.destroy());
  let socket: WebSocket;
  try {
    socket = await options.openTunnel();
  } catch (error) {
    options.say(`error: ${oneLine(error)}`);
    tcp.destroy();
    return;
  }
  if (tcp.destroyed) {
    socket.close(1000, "the local connection closed");
    return;
  }
  const gone = new Promise<void>((resolve) => tcp.once("close", () => resolve()));
  await bridgeToWebSocket({ input: tcp, output: tcp, gone }, socket, options.pingIntervalMs);
  tcp.destroySoon();
}

async function startUdpForwarder(options: ForwarderOptions): Promise<LocalForwarder> {
  const udp: UdpSocket = createSocket(isIPv6(options.address) ? "udp6" : "udp4");
  const tunnels = new Map<string, { socket: Promise<WebSocket | undefined>; idle: NodeJS.Timeout }>();
  const tunnelFor = (sender: RemoteInfo) => {
    const key = `${sender.address}|${sender.port}`;
    const existing = tunnels.get(key);
    if (existing) {
      existing.idle.refresh();
      return existing.socket;
    }
    const socket = options.openTunnel().then(
      (opened) => {
        opened.on("message", (data: Buffer) => udp.send(data, sender.port, sender.address));
        opened.on("error", () => undefined);
        opened.once("close", () => tunnels.delete(key));
        opened.resume();
        return opened;
      },
      (error: unknown) => {
        options.say(`error: ${oneLine(error)}`);
        tunnels.delete(key);
        return undefined;
      },
    );
    const idle = setTimeout(() => void socket.then((opened) => opened?.close(1000, "idle")), UDP_IDLE_MS);
    idle.unref();
    tunnels.set(key, { socket, idle });
    return socket;
  };
  udp.on("message", (datagram, sender) => {
    void tunnelFor(sender).then((socket) => socket?.send(datagram, { binary: true }));
  });
  await new Promise<void>((resolve, reject) => {
    udp.once("error", (error) => reject(listenError(options, error)));
    udp.bind(options.port.local, options.address, () => resolve());
  });
  udp.on("error", (error) => options.say(`error: UDP port ${options.port.local}: ${oneLine(error)}`));
  return {
    port: udp.address().port,
    close: async () => {
      for (const { socket, idle } of tunnels.values()) {
        clearTimeout(idle);
        void socket.then((opened) => opened?.close(1000, "virtctl stopped"));
      }
      await new Promise<void>((resolve) => udp.close(() => resolve()));
    },
  };
}

function listenError(options: ForwarderOptions, error: Error): CliError {
  return new CliError(
    `cannot listen on ${options.address}:${options.port.local} (${options.port.protocol}): ${oneLine(error)}; pick another local port or --address`,
    { cause: error },
  );
}
