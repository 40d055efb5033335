import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import {
  createCertificateAuthority,
  issueServerCertificate,
} from "../../../dev-cluster/apiserver/tls/x509-issuer.js";

/** One request a backend received, as the tests inspect it. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** Every header line, repeated names included (X-Remote-Group comes once per group). */
  rawHeaders: string[];
  /** The common name of the verified client certificate, if one was presented and verified. */
  clientCommonName: string | undefined;
  body: string;
}

export interface TlsBackend {
  server: Server;
  port: number;
  /** The CA that signed the backend's serving certificate, PEM and base64 (for caBundle fields). */
  caCertPem: string;
  caBundle: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface TlsBackendOptions {
  /** The names the serving certificate carries, e.g. `<service>.<namespace>.svc`. */
  serverNames: string[];
  /** Client certificates are asked for and verified against this CA (not required). */
  clientCaPem?: string;
  handle(request: RecordedRequest, response: ServerResponse): void;
}

function commonNameOf(request: IncomingMessage): string | undefined {
  const socket = request.socket as TLSSocket;
  if (!socket.authorized) return undefined;
  const subject = socket.getPeerCertificate()?.subject;
  return typeof subject?.CN === "string" ? subject.CN : undefined;
}

/**
 * An HTTPS server in the test process, with a certificate from a CA of its own for the given
 * names, standing in for an aggregated API server or an admission webhook.
 */
export async function startTlsBackend(options: TlsBackendOptions): Promise<TlsBackend> {
  const ca = await createCertificateAuthority("test-backend-ca", 1);
  const serving = await issueServerCertificate(ca, { hosts: options.serverNames, ips: [] }, 1);
  const requests: RecordedRequest[] = [];
  const server = createServer(
    {
      cert: serving.certPem,
      key: serving.keyPem,
      ...(options.clientCaPem
        ? { ca: options.clientCaPem, requestCert: true, rejectUnauthorized: false }
        : {}),
    },
    (request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const recorded: RecordedRequest = {
          method: request.method ?? "",
          url: request.url ?? "",
          headers: request.headers,
          rawHeaders: request.rawHeaders,
          clientCommonName: commonNameOf(request),
          body: Buffer.concat(chunks).toString("utf8"),
        };
        requests.push(recorded);
        options.handle(recorded, response);
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    caCertPem: ca.certPem,
    caBundle: Buffer.from(ca.certPem).toString("base64"),
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * A Service without a selector and the Endpoints its owner writes for it, so that the Service
 * resolves to a server in the test process (127.0.0.1:`port`), as real Kubernetes allows for
 * servers outside the cluster.
 */
export function localServiceManifest(namespace: string, name: string, port: number): string {
  return `apiVersion: v1
kind: Service
metadata: {name: ${name}, namespace: ${namespace}}
spec:
  ports: [{port: 443, targetPort: ${port}}]
---
apiVersion: v1
kind: Endpoints
metadata: {name: ${name}, namespace: ${namespace}}
subsets:
  - addresses: [{ip: 127.0.0.1}]
    ports: [{port: ${port}}]
`;
}
