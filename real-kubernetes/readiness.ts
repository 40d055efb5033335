/** Readiness checks for the daemons: an HTTP(S) GET answered 200. */
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";

export interface HttpCheckOptions {
  /** PEM CA for an https URL; without one the server's certificate is not checked (self-signed health ports). */
  readonly ca?: string;
  readonly timeoutMs?: number;
}

export function answers200(url: string, options: HttpCheckOptions = {}): Promise<boolean> {
  return new Promise((resolveCheck) => {
    const https = url.startsWith("https:");
    const request = https ? httpsRequest : httpRequest;
    const req = request(
      url,
      {
        method: "GET",
        timeout: options.timeoutMs ?? 2_000,
        ...(https ? (options.ca ? { ca: options.ca } : { rejectUnauthorized: false }) : {}),
      },
      (res) => {
        res.resume();
        resolveCheck(res.statusCode === 200);
      },
    );
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolveCheck(false));
    req.end();
  });
}
