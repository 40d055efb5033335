import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startTestApiServer, type TestApiServer } from "../harness/api-server-fixture.js";
import { rawRequest } from "../harness/https-client.js";

const json = { "content-type": "application/json" };

describe("nodes and pod bindings", () => {
  let cluster: TestApiServer;

  before(async () => {
    cluster = await startTestApiServer();
  });
  after(async () => cluster?.close());

  test("a Node registered with its status keeps it (kubelet registers capacity and conditions)", async () => {
    const node = {
      apiVersion: "v1",
      kind: "Node",
      metadata: { name: "n1" },
      status: { capacity: { cpu: "4", pods: "110" }, conditions: [{ type: "Ready", status: "True" }] },
    };
    const created = await rawRequest(cluster.server, "POST", "/api/v1/nodes", {
      body: JSON.stringify(node),
      headers: json,
    });
    assert.equal(created.status, 201, created.body);
    const cpu = await cluster.kubectl(["get", "node", "n1", "-o", "jsonpath={.status.capacity.cpu}"]);
    assert.equal(cpu.stdout, "4");
  });

  test("a binding names the pod it placed: another uid gets 409, and a bound pod cannot be bound again", async () => {
    const pod = { metadata: { name: "p1" }, spec: { containers: [{ name: "c", image: "busybox:1.36" }] } };
    const created = await rawRequest(cluster.server, "POST", "/api/v1/namespaces/default/pods", {
      body: JSON.stringify(pod),
      headers: json,
    });
    const uid = (JSON.parse(created.body) as { metadata: { uid: string } }).metadata.uid;
    const binding = (podUid: string) =>
      JSON.stringify({
        apiVersion: "v1",
        kind: "Binding",
        metadata: { name: "p1", uid: podUid },
        target: { kind: "Node", name: "n1" },
      });
    const path = "/api/v1/namespaces/default/pods/p1/binding";
    const wrong = await rawRequest(cluster.server, "POST", path, {
      body: binding("00000000-0000-0000-0000-000000000000"),
      headers: json,
    });
    assert.equal(wrong.status, 409, wrong.body);
    const right = await rawRequest(cluster.server, "POST", path, { body: binding(uid), headers: json });
    assert.equal(right.status, 201, right.body);
    const again = await rawRequest(cluster.server, "POST", path, { body: binding(uid), headers: json });
    assert.equal(again.status, 409);
    const nodeName = await cluster.kubectl(["get", "pod", "p1", "-o", "jsonpath={.spec.nodeName}"]);
    assert.equal(nodeName.stdout, "n1");
  });
});
