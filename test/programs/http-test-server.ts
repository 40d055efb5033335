/**
 * A small HTTP server for the node agent's tests, run as a pod's container. It listens on
 * $POD_IP:$PORT (so replicas on one node never collide), and answers:
 *   GET /          {"pod": $POD_NAME, "ip": $POD_IP, "pid": ...}
 *   GET /ready     200 once $READY_AFTER_MS have passed since start, 503 before
 *   GET /healthz   200, or 500 once $FAIL_LIVENESS_AFTER_MS have passed
 *   GET /api       the HTTP status of GET /version on the API server, reached through
 *                  $KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT with the CA and token found
 *                  where client libraries look, under $KUBEVIRT_TS_ROOT (the API server's
 *                  certificate must name the address pods reach it at)
 *   GET /fetch?url=U   {"status", "body"} of GET U made from inside the pod (its resolv.conf,
 *                  its routes), or {"error": code}
 *   GET /resolve?name=N  {"addresses"} the pod's resolver gives for N, or {"error": code}
 * On SIGTERM it prints "received SIGTERM" and exits 0 after $TERM_DELAY_MS.
 */
import { lookup } from "node:dns/promises";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { request } from "node:https";
import { join } from "node:path";

const startedAt = Date.now();
const host = process.env.POD_IP ?? "127.0.0.1";
const port = Number(process.env.PORT ?? "8080");
const readyAfterMs = Number(process.env.READY_AFTER_MS ?? "0");
const failLivenessAfterMs = Number(process.env.FAIL_LIVENESS_AFTER_MS ?? "Infinity");
const termDelayMs = Number(process.env.TERM_DELAY_MS ?? "0");

function apiStatus(): Promise<number> {
  const dir = join(process.env.KUBEVIRT_TS_ROOT ?? "", "/var/run/secrets/kubernetes.io/serviceaccount");
  const ca = readFileSync(join(dir, "ca.crt"));
  let token = "";
  try {
    token = readFileSync(join(dir, "token"), "utf8");
  } catch {
    // no token: the request goes anonymous
  }
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: process.env.KUBERNETES_SERVICE_HOST,
        port: Number(process.env.KUBERNETES_SERVICE_PORT),
        path: "/version",
        ca,
        headers: token ? { Authorization: `Bearer ${token}` } : {},
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

/** GET `url` from this pod; a failure is its error code (ENOTFOUND, ECONNREFUSED, ...). */
async function fetchFromPod(url: string): Promise<unknown> {
  try {
    const fetched = await fetch(url, { signal: AbortSignal.timeout(5000) });
    return { status: fetched.status, body: await fetched.text() };
  } catch (error) {
    const cause = error instanceof Error ? (error.cause as NodeJS.ErrnoException | undefined) : undefined;
    return { error: cause?.code ?? (error instanceof Error ? error.name : String(error)) };
  }
}

async function resolveFromPod(name: string): Promise<unknown> {
  try {
    return { addresses: (await lookup(name, { all: true, family: 4 })).map((entry) => entry.address) };
  } catch (error) {
    return { error: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
}

const server = createServer((incoming, response) => {
  const elapsed = Date.now() - startedAt;
  const answer = (code: number, body: unknown): void => {
    response.writeHead(code, { "Content-Type": "application/json" });
    response.end(JSON.stringify(body));
  };
  console.log(`${incoming.method} ${incoming.url}`);
  if (incoming.url === "/ready") answer(elapsed >= readyAfterMs ? 200 : 503, { elapsed });
  else if (incoming.url === "/healthz") answer(elapsed >= failLivenessAfterMs ? 500 : 200, { elapsed });
  else if (incoming.url?.startsWith("/fetch?") || incoming.url?.startsWith("/resolve?")) {
    const query = new URL(incoming.url, "http://pod").searchParams;
    const work = incoming.url.startsWith("/fetch?")
      ? fetchFromPod(query.get("url") ?? "")
      : resolveFromPod(query.get("name") ?? "");
    work.then((body) => answer(200, body));
  } else if (incoming.url === "/api") {
    apiStatus().then(
      (status) => answer(200, { status }),
      (error: unknown) => answer(502, { error: String(error) }),
    );
  } else answer(200, { pod: process.env.POD_NAME, ip: host, pid: process.pid });
});

server.listen(port, host, () => console.log(`listening on ${host}:${port}`));
process.on("SIGTERM", () => {
  console.log("received SIGTERM");
  setTimeout(() => process.exit(0), termDelayMs);
});
