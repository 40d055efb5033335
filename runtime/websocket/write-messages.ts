/**
 * A WebSocket's messages written to a byte stream (a terminal, a TCP connection, a libvirt
 * stream) with backpressure: while the stream refuses more (write() returned false) the socket is
 * not read, so its TCP window closes and a fast sender is slowed instead of growing our memory.
 */
import type { Writable } from "node:stream";
import type { RawData, WebSocket } from "ws";

/**
 * Writes every message from now until the socket closes (what arrives after the caller is done,
 * e.g. the echo of the last bytes typed, still reaches the output). The function returned drops
 * a pending wait for the output's drain: one that outlives the socket (stdout) keeps no listener.
 */
export function writeMessagesTo(socket: WebSocket, output: Writable): () => void {
  const resumeSocket = (): void => {
    socket.resume();
  };
  const onMessage = (data: RawData): void => {
    // An output that ended or failed takes nothing more; its own close ends the socket.
    if (output.destroyed || output.writableEnded) return;
    if (!output.write(bytesOf(data)) && !socket.isPaused) {
      socket.pause();
      output.once("drain", resumeSocket);
    }
  };
  socket.on("message", onMessage);
  return () => {
    output.removeListener("drain", resumeSocket);
  };
}

/** A message's bytes, whatever form `ws` hands them in (a Buffer, fragments, or an ArrayBuffer). */
function bytesOf(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}
