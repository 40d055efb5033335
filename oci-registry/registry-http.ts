// One HTTP(S) GET to a registry, following redirects (blob GETs are often sent to object storage) without
// ever carrying Authorization to another origin. Plain http only for http:// URLs, which come only from an
// endpoint configured as such (registry-endpoint.ts). Bodies stay streams: manifests and blobs are read by
// their callers with their own limits.
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";

export interface HttpResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: IncomingMessage;
  /** The URL that answered (after redirects). */
  readonly url: URL;
}

export interface HttpGetOptions {
  readonly headers: Readonly<Record<string, string>>;
  /** Do not verify TLS certificates of `url`'s origin (redirect targets elsewhere are verified). */
  readonly skipVerify: boolean;
  /** Idle time after which the request fails. */
  readonly timeoutMs?: number;
}

/** The request could not be made or answered (no HTTP status): the endpoint is unreachable. */
export class HttpUnreachableError extends Error {
  override readonly name = "HttpUnreachableError";
}

const MAX_REDIRECTS = 5;
const DEFAULT_TIMEOUT_MS = 60_000;

function getOnce(
  url: URL,
  headers: Record<string, string>,
  skipVerify: boolean,
  timeoutMs: number,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const options = { method: "GET", headers, timeout: timeoutMs };
    const request =
      url.protocol === "https:"
        ? httpsRequest(url, { ...options, rejectUnauthorized: !skipVerify }, resolve)
        : httpRequest(url, options, resolve);
    request.on("timeout", () => request.destroy(new Error(`no answer for ${timeoutMs} ms`)));
    request.on("error", (error) =>
      reject(
        new HttpUnreachableError(`GET ${url.origin}${url.pathname} failed: ${error.message}`, {
          cause: error,
        }),
      ),
    );
    request.end();
  });
}

export async function httpGet(url: URL, options: HttpGetOptions): Promise<HttpResponse> {
  let current = url;
  let headers: Record<string, string> = { ...options.headers };
  for (let redirects = 0; ; redirects++) {
    const skipVerify = options.skipVerify && current.origin === url.origin;
    if (current.protocol !== "https:" && current.protocol !== "http:") {
      throw new HttpUnreachableError(`a redirect to ${current.protocol} is not followed`);
    }
    const response = await getOnce(current, headers, skipVerify, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (![301, 302, 303, 307, 308].includes(status) || location === undefined) {
      return { status, headers: response.headers, body: response, url: current };
    }
    response.resume();
    if (redirects >= MAX_REDIRECTS)
      throw new HttpUnreachableError(`more than ${MAX_REDIRECTS} redirects from ${url.origin}`);
    const next = new URL(location, current);
    if (next.origin !== current.origin) {
      const { authorization: _dropped, ...rest } = headers;
      headers = rest;
    }
    current = next;
  }
}

/** The body as one buffer; fails once it passes `limit` bytes (the rest is not read). */
export async function readLimited(body: IncomingMessage, limit: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    length += buffer.length;
    if (length > limit) {
      body.destroy();
      throw new Error(`${what} is larger than ${limit} bytes`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
