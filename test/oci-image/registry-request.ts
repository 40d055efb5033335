// Plain-HTTP requests to a test registry, with a body from memory or streamed from a file.
import { createReadStream } from "node:fs";
import { request } from "node:http";
import type { BlobContent } from "./layer.js";

export interface RegistryResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
}

export interface RegistryRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: { readonly content: BlobContent; readonly size: number; readonly contentType: string };
}

export class RegistryRequestError extends Error {
  override readonly name = "RegistryRequestError";
  readonly reason = "ConnectionFailed";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export function sendRegistryRequest(req: RegistryRequest): Promise<RegistryResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...req.headers };
    if (req.body) {
      headers["content-type"] = req.body.contentType;
      headers["content-length"] = String(req.body.size);
    }
    const outgoing = request(req.url, { method: req.method, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("error", fail);
      incoming.on("end", () =>
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks) }),
      );
    });
    function fail(error: Error): void {
      reject(new RegistryRequestError(`${req.method} ${req.url.href} failed`, { cause: error }));
    }
    outgoing.on("error", fail);
    const content = req.body?.content;
    if (content === undefined) outgoing.end();
    else if (Buffer.isBuffer(content)) outgoing.end(content);
    else {
      // Streamed, so a 400 MiB disk layer is never read into memory to be pushed.
      const file = createReadStream(content.path);
      file.on("error", (error) => {
        outgoing.destroy(error);
        fail(error);
      });
      file.pipe(outgoing);
    }
  });
}

export function headerValue(response: RegistryResponse, name: string): string | undefined {
  const value = response.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
