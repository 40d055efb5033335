import { request } from "node:http";

/** One HTTP GET of `/`; resolves with the body, or with the error's code (ECONNREFUSED, ETIMEDOUT, ...). */
export function httpGet(
  host: string,
  port: number,
  timeoutMs = 5_000,
): Promise<{ body?: string; error?: string }> {
  return new Promise((resolve) => {
    const req = request({ host, port, path: "/", timeout: timeoutMs }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ body: Buffer.concat(chunks).toString() }));
      // A reply cut off after its headers (the idle timeout destroys the socket) never ends: it
      // must settle too, or a caller polling for an answer would wait for ever.
      response.on("close", () => {
        if (!response.complete) resolve({ error: "ECONNRESET" });
      });
    });
    req.on("timeout", () => req.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })));
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}
