// One GET of the image's URL, redirects followed (as Go's client does for CDI, up to 10, to http or https
// only), no content coding asked for (the bytes counted are the bytes of the file), and a stall timeout so
// a server that stops sending fails the import instead of holding it forever.
import { get as httpGet, type IncomingMessage } from "node:http";
import { get as httpsGet } from "node:https";
import { ImportError } from "./import-error.js";

const MAX_REDIRECTS = 10;
const STALL_TIMEOUT_MS = 5 * 60_000;

export interface HttpBody {
  readonly body: IncomingMessage;
  /** Content-Length, when the server sent one. */
  readonly contentLength?: number;
}

/** The URL for messages: without user information (credentials never reach a log or a status). */
export function describeUrl(url: URL): string {
  const shown = new URL(url);
  shown.username = "";
  shown.password = "";
  return shown.toString();
}

export async function getImage(url: URL, stallTimeoutMs = STALL_TIMEOUT_MS): Promise<HttpBody> {
  let current = url;
  for (let redirects = 0; ; redirects++) {
    const response = await request(current, stallTimeoutMs);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location !== undefined) {
      response.resume();
      if (redirects >= MAX_REDIRECTS)
        throw new ImportError(`${describeUrl(url)}: stopped after ${MAX_REDIRECTS} redirects`);
      current = new URL(response.headers.location, current);
      if (current.protocol !== "http:" && current.protocol !== "https:") {
        throw new ImportError(
          `${describeUrl(url)} redirects to a ${current.protocol}// URL, which is not followed`,
        );
      }
      continue;
    }
    if (status !== 200) {
      response.resume();
      throw new ImportError(
        `expected status code 200 from ${describeUrl(current)}, got ${status} ${response.statusMessage ?? ""}`.trim(),
      );
    }
    const length = Number(response.headers["content-length"]);
    return {
      body: response,
      ...(Number.isSafeInteger(length) && length >= 0 ? { contentLength: length } : {}),
    };
  }
}

function request(url: URL, stallTimeoutMs: number): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const get = url.protocol === "https:" ? httpsGet : httpGet;
    const outgoing = get(url, { headers: { "accept-encoding": "identity" } }, resolve);
    outgoing.setTimeout(stallTimeoutMs, () => {
      outgoing.destroy(new ImportError(`${describeUrl(url)}: no data for ${stallTimeoutMs / 1000} s`));
    });
    outgoing.once("error", (error) => {
      reject(
        error instanceof ImportError
          ? error
          : new ImportError(`GET ${describeUrl(url)} failed: ${error.message}`, { cause: error }),
      );
    });
  });
}
