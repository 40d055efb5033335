/**
 * Joins the caller's WebSocket to the guest's port. TCP: bytes as they come, each chunk one binary
 * frame towards the caller and every frame's payload written to the guest, with backpressure both
 * ways (the guest is not read while the caller has more than the high-water mark unsent; the
 * caller is not read while the guest's socket refuses more). UDP: one frame is one datagram, both
 * ways. Either side's end ends the other: the guest closing its side closes the WebSocket (1000)
 * once what it sent has gone out; the caller's close ends the guest connection.
 */
import type { Socket as UdpSocket } from "node:dgram";
import type { Socket } from "node:net";
import type { Logger } from "pino";
import { type RawData, WebSocket } from "ws";
import { keepWebSocketAlive } from "../../runtime/index.js";
import type { GuestConnection } from "./guest-dial.js";

const HIGH_WATER_MARK = 1024 * 1024;
const LOW_WATER_MARK = 256 * 1024;
/** After the caller left, how long the guest gets to take the last bytes before it is cut. */
const LINGER_MS = 5_000;

export interface GuestPipeEnd {
  readonly closedBy: "client" | "guest";
  readonly code: number;
}

/** Resolves once both sides are closed. */
export function pipeToGuest(
  client: WebSocket,
  guest: GuestConnection,
  options: { pingIntervalMs: number; log: Logger },
): Promise<GuestPipeEnd> {
  keepWebSocketAlive(client, options.pingIntervalMs);
  client.on("error", (error) => options.log.debug({ err: error }, "client WebSocket error"));
  return guest.protocol === "tcp"
    ? pipeTcp(client, guest.socket, options.log)
    : pipeUdp(client, guest.socket, options.log);
}

function pipeTcp(client: WebSocket, guest: Socket, log: Logger): Promise<GuestPipeEnd> {
  let closedBy: GuestPipeEnd["closedBy"] | undefined;
  const resumeGuestIfDrained = () => {
    if (client.bufferedAmount <= LOW_WATER_MARK && !guest.destroyed) guest.resume();
  };
  guest.on("data", (chunk: Buffer) => {
    if (client.readyState !== WebSocket.OPEN) return;
    client.send(chunk, { binary: true }, resumeGuestIfDrained);
    if (client.bufferedAmount > HIGH_WATER_MARK) guest.pause();
  });
  client.on("message", (data: RawData) => {
    if (guest.destroyed || guest.writableEnded) return;
    if (!guest.write(payloadOf(data))) {
      client.pause();
      guest.once("drain", () => client.resume());
    }
  });
  guest.on("error", (error) => log.debug({ err: error }, "guest connection error"));
  const guestClosed = new Promise<void>((resolve) => {
    // The guest's FIN: what it sent is queued ahead of the close frame.
    guest.once("end", () => {
      closedBy ??= "guest";
      if (client.readyState === WebSocket.OPEN) client.close(1000, "the guest closed the connection");
    });
    guest.once("close", () => {
      closedBy ??= "guest";
      if (client.readyState === WebSocket.OPEN) client.close(1011, "the connection to the guest was lost");
      resolve();
    });
  });
  let code = 1005;
  const clientClosed = new Promise<void>((resolve) => {
    client.once("close", (closeCode: number) => {
      closedBy ??= "client";
      code = closeCode;
      if (!guest.destroyed) {
        guest.end();
        setTimeout(() => guest.destroy(), LINGER_MS).unref();
      }
      resolve();
    });
  });
  guest.resume();
  return Promise.all([guestClosed, clientClosed]).then(() => ({ closedBy: closedBy ?? "client", code }));
}

function pipeUdp(client: WebSocket, guest: UdpSocket, log: Logger): Promise<GuestPipeEnd> {
  guest.on("message", (datagram: Buffer) => {
    if (client.readyState === WebSocket.OPEN) client.send(datagram, { binary: true });
  });
  client.on("message", (data: RawData) => {
    guest.send(payloadOf(data), (error) => {
      if (error) log.debug({ err: error }, "datagram to the guest not sent");
    });
  });
  // A port nobody listens on answers with ICMP, which arrives as an error: not the end of the stream.
  guest.on("error", (error) => log.debug({ err: error }, "guest datagram socket error"));
  return new Promise((resolve) => {
    client.once("close", (code: number) => {
      guest.close();
      resolve({ closedBy: "client", code });
    });
  });
}

function payloadOf(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
