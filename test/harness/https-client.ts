import { request } from "node:https";
import type { DevApiServer } from "../../dev-cluster/apiserver/dev-api-server.js";

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTPS request to the dev API server, for protocol-level tests. */
export function rawRequest(
  server: Pick<DevApiServer, "url" | "adminToken" | "caCertPem">,
  method: string,
  path: string,
  options: {
    body?: string | Buffer;
    headers?: Record<string, string>;
    token?: string | null;
    timeoutMs?: number;
  } = {},
): Promise<RawResponse> {
  const url = new URL(path, server.url);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...options.headers };
    const token = options.token === undefined ? server.adminToken : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (options.body !== undefined) headers["content-length"] = Buffer.byteLength(options.body);
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        headers,
        ca: server.caCertPem,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.setTimeout(options.timeoutMs ?? 10_000, () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on("error", reject);
    req.end(options.body);
  });
}
