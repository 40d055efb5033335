// virtctl guestosinfo / userlist / fslist through the API server's aggregation to virt-api and its
// stand-in virt-handler: the handler's JSON printed indented, and KubeVirt's refusal in one line.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createVmi } from "../../virt-api/testing/test-objects.js";
import { startVirtctlCluster, type VirtctlCluster } from "../testing/virtctl-cluster.js";

describe("virtctl guest agent commands", () => {
  let cluster: VirtctlCluster;
  before(async () => {
    cluster = await startVirtctlCluster();
  });
  after(() => cluster?.close());

  test("print what the handler answers, for each of the three subresources", async () => {
    await createVmi(cluster.fixture.client, "agent-vmi", "Running", {
      conditions: [{ type: "AgentConnected", status: "True" }],
    });
    const answer = { items: [{ diskName: "vda1", mountPoint: "/", fileSystemType: "ext4" }], metadata: {} };
    cluster.fixture.handler.putAnswer = { code: 200, body: JSON.stringify(answer) };
    try {
      for (const [verb, subresource] of [
        ["guestosinfo", "guestosinfo"],
        ["userlist", "userlist"],
        ["fslist", "filesystemlist"],
      ] as const) {
        const result = await cluster.run([verb, "agent-vmi"]);
        assert.equal(result.code, 0, result.stderr);
        assert.equal(result.stdout, `${JSON.stringify(answer, null, 2)}\n`);
        const seen = cluster.fixture.handler.requests.filter((r) =>
          r.path.endsWith(`/agent-vmi/${subresource}`),
        );
        assert.equal(seen.length, 1, subresource);
      }
    } finally {
      cluster.fixture.handler.putAnswer = { code: 200, body: "" };
    }
  });

  test("a VMI without a connected agent: KubeVirt's message on one line", async () => {
    await createVmi(cluster.fixture.client, "no-agent-vmi", "Running", {});
    const result = await cluster.run(["fslist", "no-agent-vmi"]);
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stderr.trimEnd().split("\n").length, 1, result.stderr);
    assert.match(result.stderr, /VMI does not have guest agent connected/);
  });
});
