import type { Logger } from "pino";
import { KubeApiError, type KubeTransport } from "../../../runtime/index.js";
import type { PodIdentity } from "../kinds.js";

export interface BoundToken {
  token: string;
  /** Epoch ms. */
  expiresAt: number;
}

/** The API server has no TokenRequest API (yet): pods run without a token. */
export class TokenRequestUnsupportedError extends Error {
  override readonly name = "TokenRequestUnsupportedError";
}

/** kubelet asks for the default projected token's lifetime: an hour and a few seconds. */
const expirationSeconds = 3607;

/**
 * Asks the TokenRequest API (`POST .../serviceaccounts/NAME/token`) for a token bound to a
 * pod, with the API server's default audience, as kubelet does for the projected
 * `kube-api-access` volume.
 */
export class TokenRequester {
  readonly #transport: KubeTransport;
  readonly #log: Logger;
  #reportedUnsupported = false;

  constructor(transport: KubeTransport, log: Logger) {
    this.#transport = transport;
    this.#log = log;
  }

  async request(pod: PodIdentity, serviceAccount: string, now: number): Promise<BoundToken> {
    const path = `/api/v1/namespaces/${encodeURIComponent(pod.namespace)}/serviceaccounts/${encodeURIComponent(serviceAccount)}/token`;
    let answer: { status?: { token?: string; expirationTimestamp?: string } };
    try {
      answer = await this.#transport.json({
        method: "POST",
        path,
        body: {
          apiVersion: "authentication.k8s.io/v1",
          kind: "TokenRequest",
          spec: {
            expirationSeconds,
            boundObjectRef: { apiVersion: "v1", kind: "Pod", name: pod.name, uid: pod.uid },
          },
        },
      });
    } catch (error) {
      throw this.#classify(error, pod, serviceAccount);
    }
    const token = answer.status?.token;
    if (!token) throw new Error(`the TokenRequest for ${pod.namespace}/${serviceAccount} returned no token`);
    const expiry = Date.parse(answer.status?.expirationTimestamp ?? "");
    return { token, expiresAt: Number.isFinite(expiry) ? expiry : now + expirationSeconds * 1000 };
  }

  #classify(error: unknown, pod: PodIdentity, serviceAccount: string): Error {
    const unsupported =
      error instanceof KubeApiError &&
      (error.code === 405 || (error.code === 404 && error.status?.details?.kind !== "serviceaccounts"));
    if (!unsupported) {
      return new Error(`cannot get a token of service account ${pod.namespace}/${serviceAccount}`, {
        cause: error,
      });
    }
    if (!this.#reportedUnsupported) {
      this.#reportedUnsupported = true;
      this.#log.warn(
        { err: error },
        "the API server does not serve the TokenRequest API: pods get no service-account token",
      );
    }
    return new TokenRequestUnsupportedError("the API server does not serve the TokenRequest API", {
      cause: error,
    });
  }
}
