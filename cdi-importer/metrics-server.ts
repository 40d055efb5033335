// GET /metrics over plain HTTP, as CDI's importer serves its progress for the controller to scrape. Node's
// own http server: the importer is a short-lived pod, and this is its only endpoint.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(
  registry: Registry,
  port: number,
  host = "0.0.0.0",
): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? "").split("?")[0];
    if (request.method !== "GET" || path !== "/metrics") {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { "content-type": registry.contentType }).end(text),
      (error: Error) => response.writeHead(500, { "content-type": "text/plain" }).end(`${error.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
