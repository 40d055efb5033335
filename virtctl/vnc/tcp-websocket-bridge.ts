/**
 * Joins a local TCP connection (a VNC viewer's) to a VMI's vnc WebSocket, byte for byte, with
 * backpressure both ways (the TCP side is not read while the socket has more than the
 * high-water mark unsent; the socket is not read while the TCP side refuses more) and the
 * keepalive. Either side's end ends the other. Resolves once both are closed.
 */
import type { Socket } from "node:net";
import { WebSocket } from "ws";
import { keepWebSocketAlive, writeMessagesTo } from "../../runtime/index.js";

const HIGH_WATER_MARK = 1024 * 1024;
const LOW_WATER_MARK = 256 * 1024;

/** The socket comes paused from openVmiStream: the bridge resumes it once it listens. */
export function bridgeTcpToWebSocket(tcp: Socket, socket: WebSocket, pingIntervalMs: number): Promise<void> {
  const resumeTcpIfDrained = () => {
    if (socket.bufferedAmount <= LOW_WATER_MARK) tcp.resume();
  };
  tcp.on("data", (chunk: Buffer) => {
    if (socket.readyState !== WebSocket.OPEN) return;
    socket.send(chunk, { binary: true }, resumeTcpIfDrained);
    if (socket.bufferedAmount > HIGH_WATER_MARK) tcp.pause();
  });
  writeMessagesTo(socket, tcp);
  keepWebSocketAlive(socket, pingIntervalMs);
  const socketClosed = new Promise<void>((resolve) => {
    socket.once("close", () => {
      tcp.end();
      resolve();
    });
  });
  const tcpClosed = new Promise<void>((resolve) => {
    tcp.once("close", () => {
      if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) {
        socket.close(1000, "the VNC client disconnected");
      }
      resolve();
    });
  });
  // Errors end in a close on each side; the close is what matters.
  tcp.on("error", () => tcp.destroy());
  socket.on("error", () => tcp.destroy());
  socket.resume();
  tcp.resume();
  return Promise.all([socketClosed, tcpClosed]).then(() => undefined);
}
