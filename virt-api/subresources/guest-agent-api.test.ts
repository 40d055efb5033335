// guestosinfo, userlist and filesystemlist through virt-api against the dev API server: listed in
// discovery, refused with KubeVirt's 409 while the VMI has no agent connected, otherwise forwarded
// to the VMI's virt-handler (with virt-api's certificate) and its JSON answer relayed as it is.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createVmi, subresourcePath, TEST_NAMESPACE } from "../testing/test-objects.js";
import { startVirtApiFixture, type VirtApiFixture } from "../testing/virt-api-fixture.js";

const SUBRESOURCES = ["guestosinfo", "userlist", "filesystemlist"] as const;

describe("virt-api: the guest agent's subresources", () => {
  let fixture: VirtApiFixture;
  before(async () => {
    fixture = await startVirtApiFixture();
  });
  after(() => fixture.close());

  test("discovery lists them", async () => {
    const resources = await fixture.call("GET", "/apis/subresources.kubevirt.io/v1");
    const names = (resources.json as { resources: { name: string }[] }).resources.map((r) => r.name);
    for (const subresource of SUBRESOURCES) {
      assert.ok(names.includes(`virtualmachineinstances/${subresource}`), subresource);
    }
  });

  test("no agent connected: 409; not running: 409; connected: forwarded and relayed", async () => {
    await createVmi(fixture.client, "no-agent", "Running", {});
    await createVmi(fixture.client, "scheduled", "Scheduled", {});
    await createVmi(fixture.client, "with-agent", "Running", {
      conditions: [{ type: "AgentConnected", status: "True" }],
    });
    const answer = { items: [{ userName: "root", loginTime: 1700000000.5 }], metadata: {} };
    fixture.handler.putAnswer = { code: 200, body: JSON.stringify(answer) };
    try {
      for (const subresource of SUBRESOURCES) {
        const refused = await fixture.call(
          "GET",
          subresourcePath("virtualmachineinstances", "no-agent", subresource),
        );
        assert.equal(refused.code, 409, refused.body);
        assert.match(
          (refused.json as { message: string }).message,
          /VMI does not have guest agent connected/,
        );
        const stopped = await fixture.call(
          "GET",
          subresourcePath("virtualmachineinstances", "scheduled", subresource),
        );
        assert.equal(stopped.code, 409, stopped.body);
        const served = await fixture.call(
          "GET",
          subresourcePath("virtualmachineinstances", "with-agent", subresource),
        );
        assert.equal(served.code, 200, served.body);
        assert.deepEqual(served.json, answer);
        const path = `/v1/namespaces/${TEST_NAMESPACE}/virtualmachineinstances/with-agent/${subresource}`;
        const seen = fixture.handler.requests.find((request) => request.path === path);
        assert.deepEqual(seen, { method: "GET", path, verifiedClient: "virt-api" });
      }
      const wrongMethod = await fixture.call(
        "PUT",
        subresourcePath("virtualmachineinstances", "with-agent", "userlist"),
      );
      assert.equal(wrongMethod.code, 405, wrongMethod.body);
    } finally {
      fixture.handler.putAnswer = { code: 200, body: "" };
    }
  });
});
