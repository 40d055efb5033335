/**
 * Joins the caller's WebSocket to virt-handler's: every frame goes through as it came (binary
 * stays binary), with backpressure both ways (a side whose peer has more than the high-water
 * mark unsent is not read until its peer drained below the low-water mark, so a slow virtctl
 * slows the guest's output instead of growing virt-api's memory), and the first close is passed
 * on with its code and reason (the handler closes a taken-over console with 4001 and says why).
 */
import type { Logger } from "pino";
import { type RawData, WebSocket } from "ws";
import { keepWebSocketAlive } from "../../runtime/index.js";

export interface PipeOptions {
  readonly pingIntervalMs: number;
  /** Unsent bytes towards a side above which the other side is not read (default 1 MiB). */
  readonly highWaterMark?: number;
  /** ... and below which it is read again (default 256 KiB). */
  readonly lowWaterMark?: number;
  readonly log: Logger;
}

export interface PipeEnd {
  /** Which side closed first. */
  readonly closedBy: "client" | "handler";
  readonly code: number;
  readonly reason: string;
}

/** Resolves once both sockets are closed. */
export function pipeWebSockets(
  client: WebSocket,
  handler: WebSocket,
  options: PipeOptions,
): Promise<PipeEnd> {
  const high = options.highWaterMark ?? 1024 * 1024;
  const low = options.lowWaterMark ?? 256 * 1024;
  forward(client, handler, high, low);
  forward(handler, client, high, low);
  keepWebSocketAlive(client, options.pingIntervalMs);
  keepWebSocketAlive(handler, options.pingIntervalMs);
  client.on("error", (error) => options.log.debug({ err: error }, "client WebSocket error"));
  handler.on("error", (error) => options.log.debug({ err: error }, "virt-handler WebSocket error"));
  let first: PipeEnd | undefined;
  const closed = (side: "client" | "handler", socket: WebSocket) =>
    new Promise<void>((resolve) => {
      if (socket.readyState === WebSocket.CLOSED) {
        first ??= { closedBy: side, code: 1006, reason: "" };
        closeWith(side === "client" ? handler : client, 1006, Buffer.alloc(0), side);
        resolve();
        return;
      }
      socket.once("close", (code: number, reason: Buffer) => {
        first ??= { closedBy: side, code, reason: reason.toString("utf8") };
        closeWith(side === "client" ? handler : client, code, reason, side);
        resolve();
      });
    });
  return Promise.all([closed("client", client), closed("handler", handler)]).then(
    () => first ?? { closedBy: "client", code: 1006, reason: "" },
  );
}

function forward(from: WebSocket, to: WebSocket, high: number, low: number): void {
  const resumeIfDrained = (): void => {
    if (from.isPaused && to.bufferedAmount <= low && from.readyState === WebSocket.OPEN) from.resume();
  };
  from.on("message", (data: RawData, isBinary: boolean) => {
    if (to.readyState !== WebSocket.OPEN) return;
    // The callback runs once the frame left for the kernel: the moment to look at the backlog again.
    to.send(data, { binary: isBinary }, resumeIfDrained);
    if (to.bufferedAmount > high && !from.isPaused) from.pause();
  });
}

/**
 * Passes a close on. Codes that may not be sent in a close frame are translated: none received
 * (1005) closes without a code; an abnormal end (1006, or a TLS failure 1015) becomes 1011 with
 * a reason that says which side was lost.
 */
function closeWith(peer: WebSocket, code: number, reason: Buffer, lostSide: "client" | "handler"): void {
  if (peer.readyState === WebSocket.CLOSING || peer.readyState === WebSocket.CLOSED) return;
  if (code === 1005) {
    peer.close();
    return;
  }
  if (code === 1006 || code === 1015 || !sendable(code)) {
    peer.close(
      1011,
      lostSide === "handler" ? "the connection to virt-handler was lost" : "the client connection was lost",
    );
    return;
  }
  peer.close(code, reason);
}

function sendable(code: number): boolean {
  return (
    (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) ||
    (code >= 3000 && code <= 4999)
  );
}
