// Fixture recorder (not part of the server or of the tests): answers just enough of the Kubernetes API for
// kubectl to get to its POST, and saves each POST body to BODIES_DIR as <n>.bin with <n>.meta.
// Usage: node record-server.mjs PORT BODIES_DIR CRONJOB_JSON
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";

const [port, bodiesDir, cronJobFile] = process.argv.slice(2);
const groups = ["apps", "rbac.authorization.k8s.io", "scheduling.k8s.io", "batch", "policy"];
const resources = {
  v1: [
    ["namespaces", "Namespace", false],
    ["configmaps", "ConfigMap", true],
    ["secrets", "Secret", true],
    ["serviceaccounts", "ServiceAccount", true],
    ["services", "Service", true],
    ["resourcequotas", "ResourceQuota", true],
    ["pods", "Pod", true],
    ["pods/log", "Pod", true],
  ],
  "apps/v1": [["deployments", "Deployment", true]],
  "rbac.authorization.k8s.io/v1": [
    ["roles", "Role", true],
    ["clusterroles", "ClusterRole", false],
    ["rolebindings", "RoleBinding", true],
    ["clusterrolebindings", "ClusterRoleBinding", false],
  ],
  "scheduling.k8s.io/v1": [["priorityclasses", "PriorityClass", false]],
  "batch/v1": [
    ["jobs", "Job", true],
    ["cronjobs", "CronJob", true],
  ],
  "policy/v1": [["poddisruptionbudgets", "PodDisruptionBudget", true]],
};
let posts = 0;

function discovery(path) {
  if (path === "/version") return { major: "1", minor: "32", gitVersion: "v1.32.0" };
  if (path === "/api") return { kind: "APIVersions", versions: ["v1"], serverAddressByClientCIDRs: [] };
  if (path === "/apis") {
    const version = (g) => ({ groupVersion: `${g}/v1`, version: "v1" });
    const list = groups.map((g) => ({ name: g, versions: [version(g)], preferredVersion: version(g) }));
    return { kind: "APIGroupList", apiVersion: "v1", groups: list };
  }
  const groupVersion = path === "/api/v1" ? "v1" : path.replace(/^\/apis\//, "");
  const list = resources[groupVersion];
  if (!list) return undefined;
  const entries = list.map(([name, kind, namespaced]) => ({
    name,
    singularName: "",
    namespaced,
    kind,
    verbs: ["create", "get"],
  }));
  return { kind: "APIResourceList", apiVersion: "v1", groupVersion, resources: entries };
}

function record(request, body) {
  posts += 1;
  const name = String(posts).padStart(3, "0");
  mkdirSync(bodiesDir, { recursive: true });
  writeFileSync(`${bodiesDir}/${name}.bin`, body);
  writeFileSync(
    `${bodiesDir}/${name}.meta`,
    `${request.method} ${request.url} ${request.headers["content-type"]}\n`,
  );
}

function answer(request, body) {
  const path = new URL(request.url ?? "/", "http://recorder").pathname;
  if (request.method === "POST") {
    record(request, body);
    if (path.endsWith("/token"))
      return [201, { kind: "TokenRequest", apiVersion: "authentication.k8s.io/v1", status: { token: "t" } }];
    const resource = path.split("/").at(-1);
    const [apiVersion, [, kind]] = Object.entries(resources)
      .flatMap(([gv, list]) => list.map((entry) => [gv, entry]))
      .find(([, [name]]) => name === resource) ?? ["v1", ["", "Unknown"]];
    return [201, { kind, apiVersion, metadata: { name: "recorded", namespace: "default" } }];
  }
  if (/\/cronjobs\/[^/]+$/.test(path)) return [200, JSON.parse(readFileSync(cronJobFile, "utf8"))];
  const found = discovery(path);
  return found
    ? [200, found]
    : [404, { kind: "Status", apiVersion: "v1", status: "Failure", code: 404, reason: "NotFound" }];
}

http
  .createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const [code, object] = answer(request, Buffer.concat(chunks));
      response.writeHead(code, { "content-type": "application/json" });
      response.end(JSON.stringify(object));
    });
  })
  .listen(Number(port), "127.0.0.1");
