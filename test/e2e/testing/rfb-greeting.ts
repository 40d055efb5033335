// The first thing a VNC server says: its RFB ProtocolVersion, read from a TCP connection (what
// `virtctl vnc --proxy-only` listens on), as a viewer's first read would.
import { connect } from "node:net";

/** The first 12 bytes a VNC server sends: its ProtocolVersion (`RFB 003.008\n`). */
export function rfbGreeting(port: number, timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port });
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(
          `no RFB greeting on 127.0.0.1:${port} within ${timeoutMs} ms (got ${JSON.stringify(received.toString("latin1"))})`,
        ),
      );
    }, timeoutMs);
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 12) return;
      clearTimeout(timer);
      socket.destroy();
      resolve(received.subarray(0, 12).toString("latin1"));
    });
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot read the RFB greeting on 127.0.0.1:${port}`, { cause: error }));
    });
    socket.on("close", () => {
      clearTimeout(timer);
      if (received.length < 12)
        reject(new Error(`127.0.0.1:${port} closed after ${JSON.stringify(received.toString("latin1"))}`));
    });
  });
}
