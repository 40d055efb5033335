import { request as httpsRequest } from "node:https";
import type { JsonValue } from "../json.js";
import { REMOTE_GROUP_HEADER, REMOTE_USER_HEADER } from "./authentication-config-map.js";
import { type BackendTls, tlsConnectionOptions } from "./backend-tls.js";
import type { ResolvedEndpoint } from "./service-resolver.js";

/** kube-aggregator gives a backend this long to answer its discovery check. */
const PROBE_TIMEOUT_MS = 5000;

/**
 * kube-aggregator's discovery check: `GET /apis/<group>/<version>` on one endpoint of the
 * APIService's Service, as `system:kube-aggregator` in `system:masters` (so the backend's
 * authorization never fails it), with the front-proxy certificate. Returns the parsed
 * APIResourceList; throws with upstream's message (`failing or missing response from URL: ...`).
 */
export function probeGroupVersion(
  endpoint: ResolvedEndpoint,
  tls: BackendTls,
  groupVersionPath: string,
): Promise<JsonValue> {
  const host = endpoint.host.includes(":") ? `[${endpoint.host}]` : endpoint.host;
  const url = `https://${host}:${endpoint.port}${groupVersionPath}`;
  const failed = (why: string, cause?: unknown) =>
    new Error(`failing or missing response from ${url}: ${why}`, { cause });
  return new Promise((resolve, reject) => {
    const request = httpsRequest({
      host: endpoint.host,
      port: endpoint.port,
      method: "GET",
      path: groupVersionPath,
      agent: false,
      headers: {
        Accept: "application/json",
        [REMOTE_USER_HEADER]: "system:kube-aggregator",
        [REMOTE_GROUP_HEADER]: "system:masters",
      },
      ...tlsConnectionOptions(tls),
    });
    const timer = setTimeout(() => request.destroy(failed("context deadline exceeded")), PROBE_TIMEOUT_MS);
    request.on("error", (error) => {
      clearTimeout(timer);
      reject(error.message.startsWith("failing or missing") ? error : failed(error.message, error));
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", (error) => request.destroy(error));
      response.on("end", () => {
        clearTimeout(timer);
        const status = response.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          reject(failed(`bad status from ${url}: ${status}`));
          return;
        }
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")) as JsonValue);
        } catch (error) {
          reject(failed(`the discovery document is not JSON: ${(error as Error).message}`, error));
        }
      });
    });
    request.end();
  });
}
