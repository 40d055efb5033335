// Bytes between a WebSocket (binary frames) and a byte stream (a libvirt console, a VNC socket),
// with backpressure both ways and nothing buffered without bound:
// - stream → socket: reading the stream stops while the WebSocket has more than `highWaterMark`
//   bytes queued, and resumes once a send completes with `lowWaterMark` or less left. A paused
//   console stream stops reading libvirt, which stops reading QEMU's pty: the guest waits.
// - socket → stream: when the stream's write buffer is full, the WebSocket stops reading its TCP
//   connection until the stream drains.
import type { Duplex } from "node:stream";
import type { Logger } from "pino";
import type { WebSocket } from "ws";
import { writeMessagesTo } from "../../runtime/index.js";

export interface BridgeOptions {
  readonly highWaterMark: number;
  readonly lowWaterMark: number;
  readonly log: Logger;
  /** Why the WebSocket is closed when the stream ends by itself (e.g. the guest stopped). */
  readonly endReason: string;
}

export const DEFAULT_WATER_MARKS = { highWaterMark: 256 * 1024, lowWaterMark: 64 * 1024 } as const;

/** Close codes the bridge uses (RFC 6455). */
export const CLOSE_CODES = { normal: 1000, goingAway: 1001, internalError: 1011 } as const;

/** WebSocket close reasons are at most 123 bytes of UTF-8. */
export function closeReason(text: string): string {
  let reason = text;
  while (Buffer.byteLength(reason) > 123) reason = reason.slice(0, -1);
  return reason;
}

/** Joins the two; closing or failing either side ends the other. */
export function bridgeWebSocket(ws: WebSocket, stream: Duplex, options: BridgeOptions): void {
  const { highWaterMark, lowWaterMark, log } = options;
  const resumeWhenDrained = (): void => {
    if (stream.isPaused() && ws.bufferedAmount <= lowWaterMark) stream.resume();
  };
  stream.on("data", (chunk: Buffer) => {
    if (ws.readyState !== ws.OPEN) return;
    ws.send(chunk, { binary: true }, (error) => {
      if (error === undefined || error === null) resumeWhenDrained();
    });
    if (ws.bufferedAmount > highWaterMark) stream.pause();
  });
  writeMessagesTo(ws, stream);
  stream.once("end", () => ws.close(CLOSE_CODES.normal, closeReason(options.endReason)));
  stream.once("close", () => ws.close(CLOSE_CODES.normal, closeReason(options.endReason)));
  stream.once("error", (error: Error) => {
    log.info({ err: error }, "the stream behind a WebSocket failed");
    ws.close(CLOSE_CODES.internalError, closeReason(error.message));
  });
  ws.once("close", () => {
    if (!stream.destroyed) stream.destroy();
  });
  ws.on("error", (error) => {
    log.info({ err: error }, "WebSocket error");
    ws.terminate();
  });
}
