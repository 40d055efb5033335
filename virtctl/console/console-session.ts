/**
 * One console connection: typed bytes to the WebSocket, the guest's output to stdout, both with
 * backpressure (stdin is not read while the socket has more than the high-water mark unsent;
 * the socket is not read while stdout refuses more), and the keepalive. Ends at Ctrl+] or when the
 * socket closes, with the close's code and reason (4001: another connection took the console over).
 */
import type { Writable } from "node:stream";
import { WebSocket } from "ws";
import { keepWebSocketAlive, writeMessagesTo } from "../../runtime/index.js";
import type { ConsoleInput } from "./console-input.js";

export type SessionEnd =
  | { readonly by: "escape" }
  | { readonly by: "close"; readonly code: number; readonly reason: string };

export interface SessionOptions {
  readonly pingIntervalMs: number;
  /** Unsent bytes above which stdin is no longer read (default 1 MiB). */
  readonly highWaterMark?: number;
  /** ... and below which it is read again (default 256 KiB). */
  readonly lowWaterMark?: number;
}

/** The socket comes paused from openVmiStream: the session resumes it once it listens. */
export function runConsoleSession(
  socket: WebSocket,
  input: ConsoleInput,
  output: Writable,
  options: SessionOptions,
): Promise<SessionEnd> {
  const high = options.highWaterMark ?? 1024 * 1024;
  const low = options.lowWaterMark ?? 256 * 1024;
  const resumeInputIfDrained = () => {
    if (socket.bufferedAmount <= low) input.resume();
  };
  const detach = input.attach((chunk) => {
    if (socket.readyState !== WebSocket.OPEN) return;
    socket.send(chunk, { binary: true }, resumeInputIfDrained);
    if (socket.bufferedAmount > high) input.pause();
  });
  const releaseOutput = writeMessagesTo(socket, output);
  // The close that follows tells how it ended; the error itself adds nothing for the user.
  socket.on("error", () => undefined);
  keepWebSocketAlive(socket, options.pingIntervalMs);
  const closed = new Promise<SessionEnd>((resolve) => {
    socket.once("close", (code: number, reason: Buffer) =>
      resolve({ by: "close", code, reason: reason.toString("utf8") }),
    );
  });
  const escaped = input.escaped.then((): SessionEnd => ({ by: "escape" }));
  socket.resume();
  return Promise.race([closed, escaped]).finally(() => {
    detach();
    releaseOutput();
  });
}

/** Closes the socket and waits (briefly) for the close handshake, so the server hears why. */
export async function closeSocket(socket: WebSocket, code: number, reason: string): Promise<void> {
  if (socket.readyState === WebSocket.CLOSED) return;
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.close(code, reason);
  const timer = setTimeout(() => socket.terminate(), 1000);
  await closed;
  clearTimeout(timer);
}
