// carryOut against the dev API server: a write that lands between virt-api's read and its own
// write makes virt-api's write conflict (it is conditional on the version read), and the request
// is planned again from a fresh read instead of overwriting what the other writer did.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { KubeClient, type ObjectRef, ResourceClient } from "../../runtime/index.js";
import { startTestApiServer, type TestApiServer } from "../../test/harness/api-server-fixture.js";
import { installKubevirtCrds } from "../../test/harness/kubevirt-crds.js";
import { type VirtualMachine, vmiKind, vmKind } from "../kinds.js";
import { createVm, TEST_NAMESPACE } from "../testing/test-objects.js";
import { quietLog } from "../testing/virt-api-fixture.js";
import { planStart } from "./vm-lifecycle.js";
import { carryOut } from "./vm-lifecycle-writer.js";

/** The real VM client, except that its first read is followed by someone else's write before it returns. */
class InterruptedReads extends ResourceClient<VirtualMachine> {
  reads = 0;
  constructor(
    client: KubeClient,
    private readonly interloper: (ref: ObjectRef) => Promise<unknown>,
  ) {
    super(client.transport, vmKind, "virt-api-test");
  }

  override async get(ref: ObjectRef): Promise<VirtualMachine> {
    const read = await super.get(ref);
    this.reads += 1;
    if (this.reads === 1) await this.interloper(ref);
    return read;
  }
}

describe("carryOut: conditional writes", () => {
  let api: TestApiServer;
  let client: KubeClient;

  before(async () => {
    api = await startTestApiServer();
    client = KubeClient.fromKubeConfig(api.kubeConfig(), { fieldManager: "virt-api-test" });
    await installKubevirtCrds(client);
  });
  after(async () => {
    client.close();
    await api.close();
  });

  test("a change between the read and the write is kept, and the request planned again on it", async () => {
    await createVm(client, "raced", "Manual");
    const ref = { namespace: TEST_NAMESPACE, name: "raced" };
    const vms = new InterruptedReads(client, (target) =>
      client.resource(vmKind).mergePatch(target, { metadata: { labels: { touched: "yes" } } }),
    );
    await carryOut(
      { vms, vmis: client.resource(vmiKind) },
      ref,
      (vm, vmi) => planStart(vm, vmi, { paused: false, dryRun: false }),
      {
        dryRun: false,
        log: quietLog,
      },
    );
    assert.equal(vms.reads, 2, "read again after the conflict");
    const vm = await client.resource(vmKind).get(ref);
    assert.equal(vm.metadata?.labels?.touched, "yes");
    assert.deepEqual(vm.status?.stateChangeRequests, [{ action: "Start" }]);
  });

  test("a conflicting request that got in first is seen on the second read: KubeVirt's refusal, not a second request", async () => {
    await createVm(client, "raced-twice", "Manual");
    const ref = { namespace: TEST_NAMESPACE, name: "raced-twice" };
    const vms = new InterruptedReads(client, (target) =>
      client
        .resource(vmKind)
        .mergePatch(
          target,
          { status: { stateChangeRequests: [{ action: "Start" }] } },
          { subresource: "status" },
        ),
    );
    await assert.rejects(
      carryOut(
        { vms, vmis: client.resource(vmiKind) },
        ref,
        (vm, vmi) => planStart(vm, vmi, { paused: true, dryRun: false }),
        {
          dryRun: false,
          log: quietLog,
        },
      ),
      /stop\/start already underway/,
    );
    const vm = await client.resource(vmKind).get(ref);
    assert.deepEqual(vm.status?.stateChangeRequests, [{ action: "Start" }]);
  });
});
