import { createSocket, type Socket } from "node:dgram";
import { createServer, type Server, type Socket as TcpSocket } from "node:net";
import type { Logger } from "pino";
import type { ClusterZone } from "./cluster-zone.js";
import {
  DnsFormatError,
  encodeError,
  encodeResponse,
  messageId,
  parseQuery,
  ResponseCode,
} from "./dns-message.js";

/** Largest answer sent over UDP without EDNS; a longer one is cut and flagged, and the client asks over TCP. */
const UDP_LIMIT = 512;
/** A TCP client that sends nothing for this long is dropped. */
const TCP_IDLE_MS = 10_000;

/**
 * Answers one query message (a UDP datagram or a TCP frame); undefined when nothing should be
 * sent back. An answer longer than `maxLength` is sent without its records and flagged
 * truncated, so that the client asks again over TCP.
 */
export function answerMessage(zone: ClusterZone, message: Buffer, maxLength = 65_535): Buffer | undefined {
  let query: ReturnType<typeof parseQuery>;
  try {
    query = parseQuery(message);
  } catch (error) {
    if (!(error instanceof DnsFormatError)) throw error;
    const id = messageId(message);
    return id === undefined ? undefined : encodeError(id, ResponseCode.FORMERR);
  }
  if (query.opcode !== 0) return encodeError(query.id, ResponseCode.NOTIMP);
  const answer = zone.answer(query.question);
  const whole = encodeResponse(query, answer);
  if (whole.length <= maxLength) return whole;
  const cut = encodeResponse(query, { code: answer.code, answers: [], authority: [] });
  cut.writeUInt16BE(cut.readUInt16BE(2) | 0x0200, 2);
  return cut;
}

export interface RunningDnsServer {
  readonly address: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Serves the zone on UDP and TCP at `address:port` (port 0 picks one, the same for both). */
export async function serveDns(
  zone: ClusterZone,
  options: { address: string; port: number; log: Logger },
): Promise<RunningDnsServer> {
  const udp = createSocket({ type: "udp4", reuseAddr: false });
  udp.on("message", (message, remote) => {
    try {
      const answer = answerMessage(zone, message, UDP_LIMIT);
      if (answer) udp.send(answer, remote.port, remote.address);
    } catch (error) {
      options.log.warn({ err: error, client: remote.address }, "cannot answer a DNS query");
    }
  });
  await bindUdp(udp, options.address, options.port);
  const port = udp.address().port;
  const tcp = createServer((socket) => serveTcpClient(zone, socket, options.log));
  try {
    await listenTcp(tcp, options.address, port);
  } catch (error) {
    udp.close();
    throw error;
  }
  return {
    address: options.address,
    port,
    close: async () => {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}

function serveTcpClient(zone: ClusterZone, socket: TcpSocket, log: Logger): void {
  let pending = Buffer.alloc(0);
  socket.setTimeout(TCP_IDLE_MS, () => socket.destroy());
  socket.on("error", () => socket.destroy());
  socket.on("data", (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 2) {
      const length = pending.readUInt16BE(0);
      if (pending.length < 2 + length) return;
      const message = pending.subarray(2, 2 + length);
      pending = pending.subarray(2 + length);
      try {
        const answer = answerMessage(zone, message);
        if (!answer) continue;
        const prefix = Buffer.alloc(2);
        prefix.writeUInt16BE(answer.length, 0);
        socket.write(Buffer.concat([prefix, answer]));
      } catch (error) {
        log.warn({ err: error }, "cannot answer a DNS query over TCP");
        socket.destroy();
        return;
      }
    }
  });
}

function bindUdp(socket: Socket, address: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once("error", (error) =>
      reject(new Error(`cannot serve DNS on udp ${address}:${port}`, { cause: error })),
    );
    socket.bind(port, address, () => {
      socket.removeAllListeners("error");
      socket.on("error", () => {});
      resolve();
    });
  });
}

function listenTcp(server: Server, address: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", (error) =>
      reject(new Error(`cannot serve DNS on tcp ${address}:${port}`, { cause: error })),
    );
    server.listen(port, address, () => resolve());
  });
}
