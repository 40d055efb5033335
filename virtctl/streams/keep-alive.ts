/**
 * WebSocket ping/pong for virtctl's streams (console, vnc). An idle console must survive proxies
 * and load balancers that drop quiet connections (KubeVirt's dropped with 1006 after ~20 s until
 * it pinged, PR 17056), and a server that vanished without a close must not leave virtctl
 * waiting forever: a ping every interval, and when two in a row go unanswered the socket is
 * terminated (its close is then 1006, which the console treats as a lost connection).
 */
import type { WebSocket } from "ws";

/** KubeVirt's interval between pings. */
export const PING_INTERVAL_MS = 15_000;

export function keepAlive(socket: WebSocket, intervalMs: number = PING_INTERVAL_MS): void {
  let unanswered = 0;
  socket.on("pong", () => {
    unanswered = 0;
  });
  const timer = setInterval(() => {
    // While we do not read the socket (stdout is full), its pong cannot reach us; while our own
    // frames wait to leave, so does our ping. Slow, not gone.
    if (socket.isPaused || socket.bufferedAmount > 0) unanswered = 0;
    if (unanswered >= 2) {
      socket.terminate();
      return;
    }
    unanswered += 1;
    socket.ping();
  }, intervalMs);
  // The timer alone must not keep virtctl running.
  timer.unref();
  socket.once("close", () => clearInterval(timer));
}
