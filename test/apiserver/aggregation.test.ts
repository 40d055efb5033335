import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { WebSocket, WebSocketServer } from "ws";
import { createCertificateAuthority } from "../../dev-cluster/apiserver/tls/x509-issuer.js";
import { eventually, startTestApiServer, type TestApiServer } from "../harness/api-server-fixture.js";
import { rawRequest } from "../harness/https-client.js";
import { localServiceManifest, startTlsBackend, type TlsBackend } from "./testing/tls-backend.js";

const GROUP = "wardle.example.com";
const NAMESPACE = "wardle";
const SERVICE = "wardle-api";

const RESOURCE_LIST = {
  kind: "APIResourceList",
  apiVersion: "v1",
  groupVersion: `${GROUP}/v1`,
  resources: [
    {
      name: "flunders",
      singularName: "flunder",
      namespaced: true,
      kind: "Flunder",
      verbs: ["create", "get", "list"],
    },
    { name: "widgets/console", singularName: "", namespaced: true, kind: "", verbs: ["get"] },
  ],
};

function apiServiceManifest(group: string, caBundle: string, service = SERVICE): string {
  return `apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1.${group}}
spec:
  group: ${group}
  version: v1
  groupPriorityMinimum: 1000
  versionPriority: 15
  caBundle: ${caBundle}
  service: {namespace: ${NAMESPACE}, name: ${service}}
`;
}

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

describe("API aggregation", () => {
  let cluster: TestApiServer;
  let backend: TlsBackend;
  const upgrades: { headers: Record<string, string | string[] | undefined>; url: string }[] = [];

  const condition = async (name: string): Promise<Condition | undefined> => {
    const result = await cluster.kubectl(["get", "apiservice", name, "-o", "json"]);
    if (result.code !== 0) return undefined;
    const object = JSON.parse(result.stdout) as { status?: { conditions?: Condition[] } };
    return object.status?.conditions?.find((c) => c.type === "Available");
  };
  const waitForCondition = (name: string, status: string) =>
    eventually(`APIService ${name} Available=${status}`, async () => {
      const found = await condition(name);
      return found?.status === status ? found : undefined;
    });
  const apply = async (manifest: string) => {
    const result = await cluster.kubectl(["apply", "-f", "-"], { input: manifest });
    assert.equal(result.code, 0, result.stderr);
  };

  before(async () => {
    cluster = await startTestApiServer();
    const configMap = await cluster.kubectl([
      "get",
      "configmap",
      "-n",
      "kube-system",
      "extension-apiserver-authentication",
      "-o",
      "json",
    ]);
    assert.equal(configMap.code, 0, configMap.stderr);
    const data = (JSON.parse(configMap.stdout) as { data: Record<string, string> }).data;
    backend = await startTlsBackend({
      serverNames: [`${SERVICE}.${NAMESPACE}.svc`],
      clientCaPem: data["requestheader-client-ca-file"],
      handle(request, response) {
        const path = request.url.split("?", 1)[0];
        if (path === `/apis/${GROUP}/v1`) {
          response.writeHead(200, { "Content-Type": "application/json" });
          response.end(JSON.stringify(RESOURCE_LIST));
          return;
        }
        if (request.method === "POST") {
          response.writeHead(201, {
            "Content-Type": "application/json",
            "X-Backend-Saw": String(request.body.length),
          });
          response.end(
            JSON.stringify({ kind: "Flunder", apiVersion: `${GROUP}/v1`, echo: JSON.parse(request.body) }),
          );
          return;
        }
        response.writeHead(200, { "Content-Type": "application/json" });
        response.end(
          JSON.stringify({ kind: "FlunderList", apiVersion: `${GROUP}/v1`, metadata: {}, items: [] }),
        );
      },
    });
    const sockets = new WebSocketServer({ server: backend.server });
    sockets.on("connection", (socket, request) => {
      upgrades.push({ headers: request.headers, url: request.url ?? "" });
      socket.on("message", (data, isBinary) => socket.send(data, { binary: isBinary }));
    });
    assert.equal((await cluster.kubectl(["create", "namespace", NAMESPACE])).code, 0);
    await apply(localServiceManifest(NAMESPACE, SERVICE, backend.port));
    await apply(apiServiceManifest(GROUP, backend.caBundle));
    await waitForCondition(`v1.${GROUP}`, "True");
  });
  after(async () => {
    await cluster?.close();
    await backend?.close();
  });

  test("the authentication ConfigMap names the front proxy and its headers", async () => {
    const result = await cluster.kubectl([
      "get",
      "configmap",
      "-n",
      "kube-system",
      "extension-apiserver-authentication",
      "-o",
      "json",
    ]);
    const data = (JSON.parse(result.stdout) as { data: Record<string, string> }).data;
    assert.deepEqual(JSON.parse(data["requestheader-allowed-names"] ?? ""), ["front-proxy-client"]);
    assert.deepEqual(JSON.parse(data["requestheader-username-headers"] ?? ""), ["X-Remote-User"]);
    assert.deepEqual(JSON.parse(data["requestheader-group-headers"] ?? ""), ["X-Remote-Group"]);
    assert.deepEqual(JSON.parse(data["requestheader-extra-headers-prefix"] ?? ""), ["X-Remote-Extra-"]);
    assert.match(data["client-ca-file"] ?? "", /BEGIN CERTIFICATE/);
    const role = await cluster.kubectl([
      "get",
      "role",
      "-n",
      "kube-system",
      "extension-apiserver-authentication-reader",
      "-o",
      "jsonpath={.rules[0].resourceNames[0]}",
    ]);
    assert.equal(role.stdout, "extension-apiserver-authentication");
  });

  test("an APIService whose backend answers discovery is Available (Passed)", async () => {
    const found = await condition(`v1.${GROUP}`);
    assert.equal(found?.reason, "Passed");
    assert.equal(found?.message, "all checks passed");
  });

  test("kubectl get --raw answers through the proxy", async () => {
    const list = await cluster.kubectl(["get", "--raw", `/apis/${GROUP}/v1`]);
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(JSON.parse(list.stdout), RESOURCE_LIST);
    const objects = await cluster.kubectl(["get", "--raw", `/apis/${GROUP}/v1/namespaces/default/flunders`]);
    assert.equal(objects.code, 0, objects.stderr);
    assert.equal((JSON.parse(objects.stdout) as { kind: string }).kind, "FlunderList");
  });

  test("the backend sees the caller in X-Remote-* from the front-proxy certificate, never the client's own", async () => {
    const response = await rawRequest(
      cluster.server,
      "GET",
      `/apis/${GROUP}/v1/namespaces/default/flunders?x=1`,
      {
        headers: { "X-Remote-User": "mallory", "X-Remote-Group": "spoofed", "X-Remote-Extra-Scopes": "all" },
      },
    );
    assert.equal(response.status, 200, response.body);
    const seen = backend.requests.findLast((request) => request.url.endsWith("?x=1"));
    assert.ok(seen, "the backend got the request, query included");
    assert.equal(seen.clientCommonName, "front-proxy-client");
    assert.equal(seen.headers["x-remote-user"], "admin");
    const groups = seen.rawHeaders.filter(
      (_, i) => i % 2 === 1 && /^x-remote-group$/i.test(seen.rawHeaders[i - 1] ?? ""),
    );
    assert.deepEqual(groups.sort(), ["system:authenticated", "system:masters"]);
    assert.equal(seen.headers["x-remote-extra-scopes"], undefined);
    assert.equal(seen.headers.authorization, undefined, "the caller's token stays with the API server");
  });

  test("a POST streams its body to the backend and gets the backend's status, headers and body back", async () => {
    const body = JSON.stringify({ name: "x".repeat(100_000) });
    const response = await rawRequest(
      cluster.server,
      "POST",
      `/apis/${GROUP}/v1/namespaces/default/flunders`,
      {
        body,
        headers: { "content-type": "application/json" },
      },
    );
    assert.equal(response.status, 201, response.body);
    assert.equal(response.headers["x-backend-saw"], String(body.length));
    assert.equal((JSON.parse(response.body) as { echo: { name: string } }).echo.name.length, 100_000);
  });

  test("a WebSocket through the proxy echoes binary frames", async () => {
    const url = new URL(`/apis/${GROUP}/v1/namespaces/default/widgets/w1/console`, cluster.server.url);
    url.protocol = "wss:";
    const socket = new WebSocket(url, {
      ca: cluster.server.caCertPem,
      headers: { Authorization: `Bearer ${cluster.server.adminToken}`, "X-Remote-User": "mallory" },
    });
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    const frames = [Buffer.from([0, 1, 2, 255]), Buffer.alloc(70_000, 7)];
    const echoed: Buffer[] = [];
    const done = new Promise<void>((resolve) => {
      socket.on("message", (data, isBinary) => {
        assert.equal(isBinary, true);
        echoed.push(Buffer.from(data as Buffer));
        if (echoed.length === frames.length) resolve();
      });
    });
    for (const frame of frames) socket.send(frame);
    await done;
    socket.close();
    assert.deepEqual(echoed, frames);
    const upgrade = upgrades.at(-1);
    assert.equal(upgrade?.url, `/apis/${GROUP}/v1/namespaces/default/widgets/w1/console`);
    assert.equal(upgrade?.headers["x-remote-user"], "admin");
  });

  test("kubectl api-resources and the discovery documents list the aggregated group", async () => {
    const resources = await cluster.kubectl(["api-resources", `--api-group=${GROUP}`, "-o", "wide"]);
    assert.equal(resources.code, 0, resources.stderr);
    assert.match(
      resources.stdout,
      new RegExp(`^flunders\\s+${GROUP.replaceAll(".", "\\.")}/v1\\s+true\\s+Flunder`, "m"),
    );
    const groups = await cluster.kubectl(["get", "--raw", "/apis"]);
    const listed = (
      JSON.parse(groups.stdout) as { groups: { name: string; preferredVersion: { version: string } }[] }
    ).groups;
    assert.equal(listed.find((g) => g.name === GROUP)?.preferredVersion.version, "v1");
    const group = await cluster.kubectl(["get", "--raw", `/apis/${GROUP}`]);
    assert.equal(group.code, 0, group.stderr);
    assert.equal((JSON.parse(group.stdout) as { kind: string; name: string }).name, GROUP);
  });

  test("an APIService whose backend certificate fails its caBundle is unavailable, and its requests get 503", async () => {
    const otherCa = await createCertificateAuthority("not-the-backend-ca", 1);
    const group = "broken.example.com";
    await apply(apiServiceManifest(group, Buffer.from(otherCa.certPem).toString("base64")));
    const found = await waitForCondition(`v1.${group}`, "False");
    assert.equal(found.reason, "FailedDiscoveryCheck");
    assert.match(
      found.message,
      /failing or missing response from https:\/\/127\.0\.0\.1:\d+\/apis\/broken\.example\.com\/v1/,
    );
    const response = await rawRequest(cluster.server, "GET", `/apis/${group}/v1/namespaces/default/flunders`);
    assert.equal(response.status, 503);
    const status = JSON.parse(response.body) as { kind: string; message: string; reason: string };
    assert.deepEqual(
      [status.kind, status.reason, status.message],
      ["Status", "ServiceUnavailable", "service unavailable"],
    );
    const viaKubectl = await cluster.kubectl(["get", "--raw", `/apis/${group}/v1`]);
    assert.notEqual(viaKubectl.code, 0);
    assert.match(viaKubectl.stderr, /ServiceUnavailable|service unavailable/);
  });

  test("an APIService names why its Service cannot be reached", async () => {
    await apply(apiServiceManifest("missing.example.com", backend.caBundle, "no-such-service"));
    const missing = await waitForCondition("v1.missing.example.com", "False");
    assert.equal(missing.reason, "ServiceNotFound");
    assert.equal(missing.message, `service/no-such-service in "${NAMESPACE}" is not present`);
    await apply(`apiVersion: v1
kind: Service
metadata: {name: no-endpoints, namespace: ${NAMESPACE}}
spec:
  ports: [{port: 443}]
`);
    await apply(apiServiceManifest("lonely.example.com", backend.caBundle, "no-endpoints"));
    const lonely = await waitForCondition("v1.lonely.example.com", "False");
    assert.equal(lonely.reason, "EndpointsNotFound");
  });
});
