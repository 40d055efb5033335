/**
 * Joins local bytes (a TCP connection, or stdin and stdout) to a portforward WebSocket: input
 * chunks go out as binary frames (input not read while the socket has more than the high-water
 * mark unsent), frames are written to the output (the socket not read while the output refuses
 * more). The end of the input does not end the tunnel: a WebSocket cannot half-close, and the
 * guest may still answer (an HTTP/1.0 client, `nc` with its stdin done), so the tunnel lasts until
 * the guest's side closes it, or the local side goes away entirely.
 */
import type { Readable, Writable } from "node:stream";
import { WebSocket } from "ws";
import { keepWebSocketAlive, writeMessagesTo } from "../../runtime/index.js";

const HIGH_WATER_MARK = 1024 * 1024;
const LOW_WATER_MARK = 256 * 1024;

export interface LocalEnd {
  readonly input: Readable;
  readonly output: Writable;
  /** Fires when the local side is gone for good (a TCP connection's close); stdin has none. */
  readonly gone?: Promise<void>;
}

/** Resolves with the socket's close code once the tunnel is over. */
export function bridgeToWebSocket(
  local: LocalEnd,
  socket: WebSocket,
  pingIntervalMs: number,
): Promise<number> {
  const { input, output } = local;
  const resumeInputIfDrained = () => {
    if (socket.bufferedAmount <= LOW_WATER_MARK) input.resume();
  };
  input.on("data", (chunk: Buffer) => {
    if (socket.readyState !== WebSocket.OPEN) return;
    socket.send(chunk, { binary: true }, resumeInputIfDrained);
    if (socket.bufferedAmount > HIGH_WATER_MARK) input.pause();
  });
  const stopWriting = writeMessagesTo(socket, output);
  keepWebSocketAlive(socket, pingIntervalMs);
  socket.on("error", () => undefined);
  void local.gone?.then(() => {
    if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) {
      socket.close(1000, "the local connection closed");
    }
  });
  const closed = new Promise<number>((resolve) => {
    socket.once("close", (code: number) => {
      stopWriting();
      input.pause();
      output.end();
      resolve(code);
    });
  });
  socket.resume();
  input.resume();
  return closed;
}
