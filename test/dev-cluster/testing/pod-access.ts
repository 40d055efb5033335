import { readFileSync } from "node:fs";
import { get } from "node:http";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";

export interface HttpAnswer {
  status: number;
  body: string;
}

/** A plain HTTP GET from the test (the host), e.g. to a pod IP through the node bridge. */
export function httpGet(host: string, port: number, path: string, timeoutMs = 3000): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const request = get({ host, port, path, agent: false, timeout: timeoutMs }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
      );
      response.on("error", reject);
    });
    request.on("timeout", () => request.destroy(new Error(`GET http://${host}:${port}${path} timed out`)));
    request.on("error", reject);
  });
}

/** What the test server answers at `/`: its pod, its address and the pid of its process. */
export interface ServerIdentity {
  pod: string;
  ip: string;
  pid: number;
}

export async function serverIdentity(podIP: string, port: number): Promise<ServerIdentity> {
  const answer = await httpGet(podIP, port, "/");
  if (answer.status !== 200) throw new Error(`GET / on ${podIP} answered ${answer.status}: ${answer.body}`);
  return JSON.parse(answer.body) as ServerIdentity;
}

/** The environment a running process was started with. */
export function environmentOf(pid: number): Map<string, string> {
  const pairs = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
  return new Map(pairs.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]));
}

/**
 * The service-account token a container process finds where client libraries look for it:
 * `/var/run/secrets/kubernetes.io/serviceaccount/token` under the `KUBEVIRT_TS_ROOT` it was given.
 */
export function serviceAccountTokenOf(pid: number): string {
  const root = environmentOf(pid).get("KUBEVIRT_TS_ROOT");
  if (!root) throw new Error(`process ${pid} was given no KUBEVIRT_TS_ROOT`);
  return readFileSync(join(root, "var/run/secrets/kubernetes.io/serviceaccount/token"), "utf8").trim();
}

export interface JwtClaims {
  sub?: string;
  "kubernetes.io"?: {
    namespace?: string;
    serviceaccount?: { name?: string };
    pod?: { name?: string; uid?: string };
    node?: { name?: string };
  };
}

/** The claims of a JWT, unverified (the API server verifies them; the test reads them). */
export function jwtClaims(token: string): JwtClaims {
  const payload = token.split(".")[1] ?? "";
  return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as JwtClaims;
}

/**
 * The same token with a signature that no longer matches. The signature's first character is
 * changed: all six of its bits are data (the last character's low bits are padding that
 * decoders ignore, so changing it may leave the signature as it was).
 */
export function tamperedToken(token: string): string {
  const signatureStart = token.lastIndexOf(".") + 1;
  const changed = token[signatureStart] === "A" ? "B" : "A";
  return `${token.slice(0, signatureStart)}${changed}${token.slice(signatureStart + 1)}`;
}

/** The API server as the kubeconfig names it (url, CA, admin token), for raw requests. */
export function apiServerOf(kubeconfigPath: string): { url: string; caCertPem: string; adminToken: string } {
  const config = new KubeConfig();
  config.loadFromFile(kubeconfigPath);
  const cluster = config.getCurrentCluster();
  const user = config.getCurrentUser();
  if (!cluster?.caData || !user?.token) throw new Error(`${kubeconfigPath} has no CA or token`);
  return {
    url: cluster.server,
    caCertPem: Buffer.from(cluster.caData, "base64").toString("utf8"),
    adminToken: user.token,
  };
}
