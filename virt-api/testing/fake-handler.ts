/**
 * A stand-in for virt-handler's console server, for virt-api's tests: HTTPS with the handler's
 * certificate, taking only virt-api's client certificate (checked against the KubeVirt CA, CN
 * virt-api, as the real one does). PUTs are recorded and answered as told; WebSocket streams
 * echo what they receive, unless the test asked for the next one (`nextStream`) to drive it.
 */
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import { type WebSocket, WebSocketServer } from "ws";
import { VIRT_API_CLIENT_COMMON_NAME } from "../../runtime/tls/tls-material.js";
import type { CertificateAndKey } from "./test-certificates.js";

export interface HandlerRequest {
  readonly method: string;
  readonly path: string;
  /** The client certificate's common name, when the TLS layer verified it. */
  readonly verifiedClient: string | undefined;
}

export interface HandlerStream {
  readonly socket: WebSocket;
  readonly request: HandlerRequest;
  readonly protocol: string;
}

export class FakeHandler {
  readonly requests: HandlerRequest[] = [];
  /** What the next PUT is answered with. */
  putAnswer: { code: number; body: string } = { code: 200, body: "" };
  readonly #server: Server;
  readonly #streams: WebSocketServer;
  readonly #waiting: ((stream: HandlerStream) => void)[] = [];

  private constructor(server: Server, streams: WebSocketServer) {
    this.#server = server;
    this.#streams = streams;
  }

  static async start(serving: CertificateAndKey, clientCaPem: string): Promise<FakeHandler> {
    const server = createServer({
      cert: serving.certPem,
      key: serving.keyPem,
      ca: clientCaPem,
      requestCert: true,
      rejectUnauthorized: false,
    });
    const streams = new WebSocketServer({
      noServer: true,
      handleProtocols: (offered) => [...offered][0] ?? false,
    });
    const handler = new FakeHandler(server, streams);
    server.on("request", (request, response) => {
      const seen = handler.#record(request.method ?? "", request.url ?? "", request.socket as TLSSocket);
      if (seen.verifiedClient !== VIRT_API_CLIENT_COMMON_NAME) {
        response
          .writeHead(403)
          .end(JSON.stringify({ kind: "Status", code: 403, reason: "Forbidden", message: "not virt-api" }));
        return;
      }
      request.resume();
      request.on("end", () =>
        response
          .writeHead(handler.putAnswer.code, { "content-type": "application/json" })
          .end(handler.putAnswer.body),
      );
    });
    server.on("upgrade", (request, socket, head) => {
      const seen = handler.#record("GET", request.url ?? "", socket as TLSSocket);
      if (seen.verifiedClient !== VIRT_API_CLIENT_COMMON_NAME) {
        socket.end("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        return;
      }
      streams.handleUpgrade(request, socket, head, (ws) =>
        handler.#accepted({ socket: ws, request: seen, protocol: ws.protocol }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return handler;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  /** The next stream virt-api opens after this call, not echoing: the test drives it. */
  nextStream(): Promise<HandlerStream> {
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  async close(): Promise<void> {
    for (const client of this.#streams.clients) client.terminate();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #record(method: string, path: string, socket: TLSSocket): HandlerRequest {
    const subject = socket.authorized
      ? (socket.getPeerCertificate().subject as unknown as Record<string, string>)
      : undefined;
    const request = { method, path, verifiedClient: subject?.CN };
    this.requests.push(request);
    return request;
  }

  #accepted(stream: HandlerStream): void {
    const waiter = this.#waiting.shift();
    if (waiter) {
      waiter(stream);
      return;
    }
    // Nobody asked for it: echo, as a console whose guest repeats what it is sent.
    stream.socket.on("message", (data, isBinary) => stream.socket.send(data, { binary: isBinary }));
  }
}
