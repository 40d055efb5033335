import assert from "node:assert/strict";
import { request } from "node:https";
import { PassThrough, Readable } from "node:stream";
import { after, before, describe, test } from "node:test";
import type { PodLogRequest, PodLogSource } from "../../dev-cluster/apiserver/pod-logs.js";
import { eventually, startTestApiServer, type TestApiServer } from "../harness/api-server-fixture.js";
import { rawRequest } from "../harness/https-client.js";

/**
 * A stand-in for the node agent's log store: fixed logs per `pod/container` (and
 * `pod/container/previous`), tailed as a kubelet would, and for `follow` a stream the test feeds.
 */
class FakeLogSource implements PodLogSource {
  readonly requests: PodLogRequest[] = [];
  readonly followed: PassThrough[] = [];
  constructor(private readonly logs: Record<string, string>) {}

  async open(request: PodLogRequest): Promise<Readable | undefined> {
    this.requests.push(request);
    const key = `${request.pod}/${request.container}${request.previous ? "/previous" : ""}`;
    const text = this.logs[key];
    if (text === undefined) return undefined;
    const lines = text.split(/(?<=\n)/);
    const shown = request.tailLines === undefined ? lines : lines.slice(-request.tailLines || lines.length);
    if (!request.follow) return Readable.from([shown.join("")]);
    const stream = new PassThrough();
    stream.write(shown.join(""));
    this.followed.push(stream);
    return stream;
  }

  last(): PodLogRequest {
    const found = this.requests.at(-1);
    assert.ok(found, "the source was asked for a log");
    return found;
  }
}

const pods = `apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  initContainers: [{name: init, image: busybox}]
  containers: [{name: app, image: nginx}, {name: sidecar, image: busybox}]
---
apiVersion: v1
kind: Pod
metadata:
  name: annotated
  annotations: {kubectl.kubernetes.io/default-container: sidecar}
spec:
  containers: [{name: app, image: nginx}, {name: sidecar, image: busybox}]
---
apiVersion: v1
kind: Pod
metadata: {name: pending}
spec:
  containers: [{name: app, image: nginx}]
`;

describe("pods/log from a PodLogSource", () => {
  let cluster: TestApiServer;
  const source = new FakeLogSource({
    "web/app": "a1\na2\na3\n",
    "web/app/previous": "crashed\n",
    "web/sidecar": "s1\n",
    "annotated/app": "annotated app\n",
    "annotated/sidecar": "annotated sidecar\n",
  });
  const logPath = (pod: string, query = "") => `/api/v1/namespaces/default/pods/${pod}/log${query}`;

  before(async () => {
    cluster = await startTestApiServer({ podLogs: source });
    const applied = await cluster.kubectl(["apply", "-f", "-"], { input: pods });
    assert.equal(applied.code, 0, applied.stderr);
  });
  after(async () => cluster?.close());

  test("kubectl logs prints the container's log; the source is asked with the pod's uid", async () => {
    const result = await cluster.kubectl(["logs", "web", "-c", "app"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "a1\na2\na3\n");
    const uid = (await cluster.kubectl(["get", "pod", "web", "-o", "jsonpath={.metadata.uid}"])).stdout;
    assert.deepEqual(source.last(), {
      namespace: "default",
      pod: "web",
      podUid: uid,
      container: "app",
      follow: false,
      previous: false,
      timestamps: false,
    });
    const sidecar = await cluster.kubectl(["logs", "web", "-c", "sidecar"]);
    assert.equal(sidecar.stdout, "s1\n");
  });

  test("without a container the server picks the annotated default, else the first", async () => {
    const cases: [string, string][] = [
      ["annotated", "annotated sidecar\n"],
      ["web", "a1\na2\na3\n"],
    ];
    for (const [pod, expected] of cases) {
      const response = await rawRequest(cluster.server, "GET", logPath(pod));
      assert.equal(response.status, 200, response.body);
      assert.match(String(response.headers["content-type"]), /^text\/plain/);
      assert.equal(response.body, expected, pod);
    }
  });

  test("--tail, --timestamps, --since and --limit-bytes reach the source", async () => {
    const result = await cluster.kubectl([
      "logs",
      "web",
      "-c",
      "app",
      "--tail=2",
      "--timestamps",
      "--since=1h",
      "--limit-bytes=100",
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "a2\na3\n");
    const { tailLines, timestamps, sinceSeconds, limitBytes } = source.last();
    assert.deepEqual(
      { tailLines, timestamps, sinceSeconds, limitBytes },
      {
        tailLines: 2,
        timestamps: true,
        sinceSeconds: 3600,
        limitBytes: 100,
      },
    );
  });

  test("sinceTime becomes the equivalent sinceSeconds", async () => {
    const since = new Date(Date.now() - 120_000).toISOString();
    const response = await rawRequest(
      cluster.server,
      "GET",
      logPath("web", `?container=app&sinceTime=${since}`),
    );
    assert.equal(response.status, 200, response.body);
    const seconds = source.last().sinceSeconds ?? 0;
    assert.ok(seconds >= 120 && seconds <= 125, `sinceSeconds ${seconds}`);
  });

  test("--previous reads the previous container's log, or says there is none", async () => {
    const result = await cluster.kubectl(["logs", "web", "-c", "app", "--previous"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "crashed\n");
    assert.equal(source.last().previous, true);
    const none = await cluster.kubectl(["logs", "web", "-c", "sidecar", "--previous"]);
    assert.notEqual(none.code, 0);
    assert.match(none.stderr, /previous terminated container "sidecar" in pod "web" not found/);
  });

  test("a container with no log yet, and an unknown container, are 400s as from a kubelet", async () => {
    const pending = await cluster.kubectl(["logs", "pending"]);
    assert.notEqual(pending.code, 0);
    assert.match(pending.stderr, /container "app" in pod "pending" is waiting to start: ContainerCreating/);
    const unknown = await rawRequest(cluster.server, "GET", logPath("web", "?container=nope"));
    assert.equal(unknown.status, 400);
    assert.equal(JSON.parse(unknown.body).message, "container nope is not valid for pod web");
    const kubectlUnknown = await cluster.kubectl(["logs", "web", "-c", "nope"]);
    assert.match(kubectlUnknown.stderr, /container nope is not valid for pod web/);
  });

  const invalidQueries: [string, number, RegExp][] = [
    [
      "?tailLines=-1",
      422,
      /PodLogOptions "web" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0/,
    ],
    ["?limitBytes=0", 422, /limitBytes: Invalid value: 0: must be greater than 0/],
    ["?sinceSeconds=0", 422, /sinceSeconds: Invalid value: 0: must be greater than 0/],
    ["?sinceSeconds=5&sinceTime=2024-01-01T00:00:00Z", 422, /at most one of `sinceTime` or `sinceSeconds`/],
    ["?tailLines=ten", 400, /cannot parse "ten"/],
    ["?sinceTime=yesterday", 400, /cannot parse "yesterday"/],
  ];
  for (const [query, code, message] of invalidQueries) {
    test(`GET log${query} is a ${code}`, async () => {
      const response = await rawRequest(cluster.server, "GET", logPath("web", query));
      assert.equal(response.status, code, response.body);
      assert.match(JSON.parse(response.body).message, message);
    });
  }

  test("kubectl logs -f streams until the source's stream ends", async () => {
    const before = source.followed.length;
    const running = cluster.kubectl(["logs", "-f", "web", "-c", "app", "--tail=1"]);
    const stream = await eventually("kubectl to follow the log", () => source.followed[before]);
    assert.equal(source.last().follow, true);
    stream.write("a4\n");
    await new Promise((resolve) => setTimeout(resolve, 200));
    stream.end("a5\n");
    const result = await running;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "a3\na4\na5\n");
  });

  test("a followed log arrives chunk by chunk, and a client that leaves ends the source's stream", async () => {
    const before = source.followed.length;
    const url = new URL(logPath("web", "?container=app&follow=true&tailLines=0"), cluster.server.url);
    const firstChunk = new Promise<{ text: string; close: () => void }>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          headers: { authorization: `Bearer ${cluster.server.adminToken}` },
          ca: cluster.server.caCertPem,
        },
        (res) => {
          assert.equal(res.headers["transfer-encoding"], "chunked");
          res.once("data", (chunk: Buffer) =>
            resolve({ text: chunk.toString(), close: () => req.destroy() }),
          );
        },
      );
      req.on("error", reject);
      req.end();
    });
    const stream = await eventually("the request to reach the source", () => source.followed[before]);
    stream.write("live\n");
    const { text, close } = await firstChunk;
    assert.equal(text, "live\n");
    assert.equal(stream.writableEnded, false, "the first chunk came before the stream ended");
    close();
    await eventually("the source's stream to be destroyed", () => (stream.destroyed ? true : undefined));
  });
});
