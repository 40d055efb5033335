/**
 * WebSocket ping/pong for long-lived streams (consoles, VNC). An idle stream must survive proxies
 * and load balancers that drop quiet connections (KubeVirt's consoles dropped with 1006 after
 * ~20 s idle until it pinged, PR 17056), and a peer that vanished without a close must not hold
 * the stream open: a ping every interval, and when two in a row go unanswered the socket is
 * terminated (its close is then 1006). Pings from the peer are answered by `ws` itself.
 */
import type { WebSocket } from "ws";

/** KubeVirt's interval between pings. */
export const DEFAULT_PING_INTERVAL_MS = 15_000;

/** Starts pinging `socket`; stops by itself when it closes. */
export function keepWebSocketAlive(socket: WebSocket, intervalMs: number = DEFAULT_PING_INTERVAL_MS): void {
  let unanswered = 0;
  socket.on("pong", () => {
    unanswered = 0;
  });
  const timer = setInterval(() => {
    // Backpressure is not silence: while we are not reading the socket its pong cannot reach us,
    // and while it has not taken what we sent a ping would only queue behind it (and a peer
    // unable to send pongs ends connections that keep pinging: ws's maxPendingAutoPongs). The
    // connection moves, just slowly; TCP's own timeouts end one that is really dead.
    if (socket.isPaused || socket.bufferedAmount > 0) {
      unanswered = 0;
      return;
    }
    if (unanswered >= 2) {
      socket.terminate();
      return;
    }
    unanswered += 1;
    socket.ping();
  }, intervalMs);
  // The timer alone must not keep a process (virtctl) running.
  timer.unref();
  socket.once("close", () => clearInterval(timer));
}
