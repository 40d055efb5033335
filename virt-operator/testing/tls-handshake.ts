/** A TLS handshake between two in-process endpoints, to show that issued certificates work together. */
import { connect, createServer, type TLSSocket } from "node:tls";
import { eventually } from "../../test/harness/api-server-fixture.js";

export interface HandshakeResult {
  /** The server verified the client's certificate (when it asked for one). */
  serverAuthorizedClient: boolean;
  /** The common name of the client's certificate, as the server saw it. */
  clientName: string | undefined;
}

/**
 * One TLS handshake between a server and a client with the given options, on a free local port.
 * The client refuses a server it cannot verify (the promise rejects); the server reports what it
 * made of the client's certificate.
 */
export async function handshake(
  serverOptions: { cert: string; key: string; ca?: string; requestCert?: boolean },
  clientOptions: {
    ca: string;
    cert?: string;
    key?: string;
    servername?: string;
    checkServerIdentity?: () => undefined;
  },
): Promise<HandshakeResult> {
  let serverSide: Pick<HandshakeResult, "serverAuthorizedClient" | "clientName"> | undefined;
  const server = createServer({ ...serverOptions, rejectUnauthorized: false }, (socket: TLSSocket) => {
    const subject = socket.getPeerCertificate().subject as Record<string, string> | undefined;
    serverSide = { serverAuthorizedClient: socket.authorized, clientName: subject?.CN };
    socket.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const socket = connect({ host: "127.0.0.1", port, rejectUnauthorized: true, ...clientOptions }, () => {
        socket.on("close", () => resolve());
        socket.resume();
      });
      socket.on("error", reject);
    });
    return await eventually("the server's side of the handshake", () => serverSide);
  } finally {
    server.close();
  }
}
