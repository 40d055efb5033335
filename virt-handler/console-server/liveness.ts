// WebSocket ping/pong: idle consoles must survive load balancers and proxies that drop quiet
// connections (KubeVirt's console dropped after ~20 s idle until it pinged, PR 17056), and a peer
// that vanished without a close must not hold a console forever. Pings the peer every interval;
// two pings in a row without a pong end the connection. Pings from the peer are answered by `ws`.
import type { WebSocket } from "ws";

/** KubeVirt's interval between pings. */
export const DEFAULT_PING_INTERVAL_MS = 15_000;

/** Starts pinging `ws`; stops by itself when it closes. */
export function keepAlive(ws: WebSocket, intervalMs: number): void {
  let unanswered = 0;
  ws.on("pong", () => {
    unanswered = 0;
  });
  const timer = setInterval(() => {
    // While we stopped reading the socket (backpressure), its pongs cannot reach us: not the peer's fault.
    if (ws.isPaused) unanswered = 0;
    if (unanswered >= 2) {
      ws.terminate();
      return;
    }
    unanswered += 1;
    ws.ping();
  }, intervalMs);
  ws.once("close", () => clearInterval(timer));
}
