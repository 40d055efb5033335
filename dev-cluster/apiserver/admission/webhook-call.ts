import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { type BackendTls, tlsConnectionOptions } from "../aggregation/backend-tls.js";
import { type ServiceResolver, serviceDnsName } from "../aggregation/service-resolver.js";
import type { JsonObject, JsonValue } from "../json.js";
import type { Webhook } from "./webhook-configuration.js";
import { WebhookCallError } from "./webhook-errors.js";

/** Where one call goes: the address dialled, and the URL and name the webhook is known by. */
interface CallTarget {
  host: string;
  port: number;
  /** Path and query sent. */
  path: string;
  /** The URL as upstream's errors quote it. */
  url: string;
  tls: BackendTls;
}

/**
 * Connections to webhooks are kept and reused, as the Kubernetes API server's are: a new TLS
 * handshake for every admitted write cost more than the webhook's answer. The agent keeps a pool
 * per address and TLS configuration (CA, server name), so webhooks never share a connection
 * they should not.
 */
const webhookConnections = new HttpsAgent({ keepAlive: true, maxSockets: 16, maxFreeSockets: 4 });

/** The response body kept for an error message, as client-go quotes it. */
const MAX_ERROR_BODY = 1024;

function withTimeoutQuery(path: string, timeoutSeconds: number): string {
  // client-go tells the webhook its deadline: `?timeout=10s`.
  return `${path}${path.includes("?") ? "&" : "?"}timeout=${timeoutSeconds}s`;
}

function targetOf(webhook: Webhook, resolver: ServiceResolver): CallTarget {
  const { clientConfig, timeoutSeconds } = webhook;
  const ca = clientConfig.caBundlePem ? { caPem: clientConfig.caBundlePem } : {};
  if (clientConfig.service) {
    const service = clientConfig.service;
    const path = withTimeoutQuery(
      service.path.startsWith("/") ? service.path : `/${service.path}`,
      timeoutSeconds,
    );
    const serverName = serviceDnsName(service);
    const url = `https://${serverName}:${service.port}${path}`;
    try {
      const endpoint = resolver.resolve(service);
      return { ...endpoint, path, url, tls: { ...ca, serverName } };
    } catch (error) {
      throw new WebhookCallError(`failed to call webhook: Post "${url}": ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  if (!clientConfig.url) throw new WebhookCallError("the webhook has neither a url nor a service");
  const parsed = new URL(clientConfig.url);
  if (parsed.protocol !== "https:")
    throw new WebhookCallError(`the webhook URL ${clientConfig.url} is not https`);
  const path = withTimeoutQuery(`${parsed.pathname}${parsed.search}`, timeoutSeconds);
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  return {
    host,
    port: parsed.port ? Number(parsed.port) : 443,
    path,
    url: `${parsed.origin}${path}`,
    tls: { ...ca, serverName: host },
  };
}

/**
 * POSTs an AdmissionReview to a webhook over HTTPS (its certificate checked against the
 * caBundle and its Service's DNS name or URL host) and returns the parsed answer. Everything
 * that goes wrong (no endpoint, TLS, timeout, a non-2xx answer, a body that is not JSON) is a
 * WebhookCallError, for the failurePolicy to decide.
 */
export async function callWebhook(
  webhook: Webhook,
  review: JsonObject,
  resolver: ServiceResolver,
): Promise<JsonValue> {
  try {
    return await callWebhookOnce(webhook, review, resolver);
  } catch (error) {
    // A kept connection the webhook closed as the review was sent: once more, on a new one.
    if (!(error instanceof StaleConnectionError)) throw error;
    return callWebhookOnce(webhook, review, resolver);
  }
}

/** A reused connection that turned out closed before any answer: nothing reached the webhook. */
class StaleConnectionError extends Error {}

function callWebhookOnce(
  webhook: Webhook,
  review: JsonObject,
  resolver: ServiceResolver,
): Promise<JsonValue> {
  let target: CallTarget;
  try {
    target = targetOf(webhook, resolver);
  } catch (error) {
    return Promise.reject(error);
  }
  const body = Buffer.from(JSON.stringify(review));
  const failed = (why: string, cause?: unknown) =>
    new WebhookCallError(`failed to call webhook: Post "${target.url}": ${why}`, { cause });
  return new Promise((resolve, reject) => {
    const request = httpsRequest({
      host: target.host,
      port: target.port,
      method: "POST",
      path: target.path,
      agent: webhookConnections,
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "Content-Length": body.length,
        Host: `${target.tls.serverName}:${target.port}`,
      },
      ...tlsConnectionOptions(target.tls),
    });
    const timer = setTimeout(
      () => request.destroy(failed("context deadline exceeded")),
      webhook.timeoutSeconds * 1000,
    );
    request.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (request.reusedSocket && error.code === "ECONNRESET") {
        reject(new StaleConnectionError("the kept connection was closed", { cause: error }));
        return;
      }
      reject(error instanceof WebhookCallError ? error : failed(error.message, error));
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", (error) => {
        clearTimeout(timer);
        reject(failed(error.message, error));
      });
      response.on("end", () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString("utf8");
        const status = response.statusCode ?? 0;
        if (status < 200 || status > 299) {
          const shown = text.length > MAX_ERROR_BODY ? `${text.slice(0, MAX_ERROR_BODY)}...` : text;
          reject(
            new WebhookCallError(
              `failed to call webhook: an error on the server (${JSON.stringify(shown)}) has prevented the request from succeeding (HTTP ${status})`,
            ),
          );
          return;
        }
        try {
          resolve(JSON.parse(text) as JsonValue);
        } catch (error) {
          reject(
            new WebhookCallError(`received invalid webhook response: ${(error as Error).message}`, {
              cause: error,
            }),
          );
        }
      });
    });
    request.end(body);
  });
}
