// A local HTTP server for import tests: serves files of a directory at /<name>, with Content-Length, and
// slowly when asked (`?slow`: 64 KiB per 25 ms), so a test can watch progress or kill an import midway.
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export interface ImageServer {
  readonly url: string;
  /** Paths requested so far. */
  readonly requests: string[];
  close(): Promise<void>;
}

const SLOW_CHUNK = 64 * 1024;
const SLOW_DELAY_MS = 25;

export async function startImageServer(directory: string): Promise<ImageServer> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    requests.push(url.pathname);
    if (url.pathname.startsWith("/redirect/")) {
      response.writeHead(302, { location: `/${basename(url.pathname)}${url.search}` }).end();
      return;
    }
    const file = join(directory, basename(url.pathname));
    stat(file).then(
      async (stats) => {
        response.writeHead(200, { "content-length": stats.size, "content-type": "application/octet-stream" });
        if (!url.searchParams.has("slow")) {
          createReadStream(file).pipe(response);
          return;
        }
        for await (const chunk of createReadStream(file, { highWaterMark: SLOW_CHUNK })) {
          if (response.destroyed) return;
          response.write(chunk);
          await sleep(SLOW_DELAY_MS);
        }
        response.end();
      },
      () => response.writeHead(404).end("not found\n"),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
