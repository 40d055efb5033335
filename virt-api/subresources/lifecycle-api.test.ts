// start / stop / restart / pause / unpause through virt-api against the dev API server: what each
// does to the VM for each run strategy (KubeVirt's table), KubeVirt's refusals, dry runs that
// write nothing, and pause/unpause forwarded to the node's virt-handler with virt-api's certificate.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { RunStrategy } from "../../api/index.js";
import { type VirtualMachine, vmiKind, vmKind } from "../kinds.js";
import type { CallResult } from "../testing/front-proxy-client.js";
import { createVm, createVmi, subresourcePath, TEST_NAMESPACE } from "../testing/test-objects.js";
import { startVirtApiFixture, type VirtApiFixture } from "../testing/virt-api-fixture.js";

describe("virt-api: VM lifecycle subresources", () => {
  let fixture: VirtApiFixture;
  let counter = 0;

  before(async () => {
    fixture = await startVirtApiFixture();
  });
  after(() => fixture.close());

  /** A fresh VM (and VMI in `phase`, unless undefined) for one case. */
  async function scenario(
    strategy: RunStrategy | boolean,
    phase?: string,
    conditions?: { type: string; status: string }[],
  ) {
    counter += 1;
    const name = `vm-${counter}`;
    await createVm(fixture.client, name, strategy);
    const vmi = phase
      ? await createVmi(fixture.client, name, phase, conditions ? { conditions } : {})
      : undefined;
    return { name, uid: vmi?.metadata?.uid ?? "" };
  }

  const put = (name: string, subresource: string, body?: unknown, query = ""): Promise<CallResult> =>
    fixture.call(
      "PUT",
      `${subresourcePath("virtualmachines", name, subresource)}${query}`,
      body === undefined ? {} : { body: JSON.stringify(body) },
    );
  const vm = (name: string): Promise<VirtualMachine> =>
    fixture.client.resource(vmKind).get({ namespace: TEST_NAMESPACE, name });
  const message = (answer: CallResult): string =>
    (answer.json as { message?: string } | undefined)?.message ?? answer.body;

  function assertConflict(answer: CallResult, name: string, reason: string): void {
    assert.equal(answer.code, 409, answer.body);
    assert.equal(
      message(answer),
      `Operation cannot be fulfilled on virtualmachine.kubevirt.io "${name}": ${reason}`,
    );
  }

  test("Halted: start → runStrategy Always; stop and restart are refused", async () => {
    const { name } = await scenario("Halted");
    assertConflict(await put(name, "stop"), name, "VM is not running");
    assertConflict(
      await put(name, "restart"),
      name,
      "RunStategy Halted does not support manual restart requests",
    );
    const started = await put(name, "start");
    assert.equal(started.code, 202, started.body);
    assert.equal((await vm(name)).spec.runStrategy, "Always");
  });

  test("the deprecated running: false becomes running: true", async () => {
    const { name } = await scenario(false);
    assert.equal((await put(name, "start")).code, 202);
    const started = await vm(name);
    assert.equal(started.spec.running, true);
    assert.equal(started.spec.runStrategy, undefined);
  });

  test("Halted with --paused: a Start request carrying paused=true", async () => {
    const { name } = await scenario("Halted");
    assert.equal((await put(name, "start", { paused: true })).code, 202);
    const paused = await vm(name);
    assert.equal(paused.spec.runStrategy, "Halted");
    assert.deepEqual(paused.status?.stateChangeRequests, [{ action: "Start", data: { paused: "true" } }]);
  });

  test("Always: start is refused (running or not); stop → Halted; restart → Stop(uid) then Start", async () => {
    const stopped = await scenario("Always");
    assertConflict(
      await put(stopped.name, "start"),
      stopped.name,
      "Always does not support manual start requests",
    );
    const running = await scenario("Always", "Running");
    assertConflict(await put(running.name, "start"), running.name, "VM is already running");
    assert.equal((await put(running.name, "restart")).code, 202);
    const restarted = await vm(running.name);
    assert.equal(restarted.spec.runStrategy, "Always");
    assert.deepEqual(restarted.status?.stateChangeRequests, [
      { action: "Stop", uid: running.uid },
      { action: "Start" },
    ]);
    const halting = await scenario("Always", "Running");
    assert.equal((await put(halting.name, "stop")).code, 202);
    assert.equal((await vm(halting.name)).spec.runStrategy, "Halted");
  });

  test("Manual: start → Start request, a second one while it is pending is refused; stop → Stop(uid)", async () => {
    const { name } = await scenario("Manual");
    assert.equal((await put(name, "start")).code, 202);
    assert.deepEqual((await vm(name)).status?.stateChangeRequests, [{ action: "Start" }]);
    const again = await put(name, "start");
    assert.equal(again.code, 500, again.body);
    assert.match(message(again), /stop\/start already underway/);
    assert.equal((await vm(name)).spec.runStrategy, "Manual");

    const running = await scenario("Manual", "Running");
    assert.equal((await put(running.name, "stop")).code, 202);
    assert.deepEqual((await vm(running.name)).status?.stateChangeRequests, [
      { action: "Stop", uid: running.uid },
    ]);
    assertConflict(await put((await scenario("Manual")).name, "stop"), `vm-${counter}`, "VM is not running");
  });

  test("Manual with a finished VMI: start asks for Stop(uid) then Start", async () => {
    const { name, uid } = await scenario("Manual", "Succeeded");
    assert.equal((await put(name, "start")).code, 202);
    assert.deepEqual((await vm(name)).status?.stateChangeRequests, [
      { action: "Stop", uid },
      { action: "Start" },
    ]);
  });

  test("RerunOnFailure: start after success restarts, after failure is refused; stop → Stop(uid)", async () => {
    const succeeded = await scenario("RerunOnFailure", "Succeeded");
    assert.equal((await put(succeeded.name, "start")).code, 202);
    assert.deepEqual((await vm(succeeded.name)).status?.stateChangeRequests, [
      { action: "Stop", uid: succeeded.uid },
      { action: "Start" },
    ]);
    const failed = await scenario("RerunOnFailure", "Failed");
    assertConflict(
      await put(failed.name, "start"),
      failed.name,
      "RerunOnFailure does not support starting VM from failed state",
    );
    const running = await scenario("RerunOnFailure", "Running");
    assert.equal((await put(running.name, "stop")).code, 202);
    const stopping = await vm(running.name);
    assert.equal(stopping.spec.runStrategy, "RerunOnFailure");
    assert.deepEqual(stopping.status?.stateChangeRequests, [{ action: "Stop", uid: running.uid }]);
  });

  test("Once: start and restart are refused, stop → Halted", async () => {
    const { name } = await scenario("Once", "Running");
    assertConflict(
      await put(name, "restart"),
      name,
      "RunStategy Once does not support manual restart requests",
    );
    assert.equal((await put(name, "stop")).code, 202);
    assert.equal((await vm(name)).spec.runStrategy, "Halted");
  });

  test("stop --grace-period sets the VMI's grace period; Halted takes only a shorter one", async () => {
    const { name, uid } = await scenario("Manual", "Running");
    assert.equal((await put(name, "stop", { gracePeriod: 0 })).code, 202);
    const vmi = await fixture.client.resource(vmiKind).get({ namespace: TEST_NAMESPACE, name });
    assert.equal(vmi.spec.terminationGracePeriodSeconds, 0);
    assert.deepEqual((await vm(name)).status?.stateChangeRequests, [{ action: "Stop", uid }]);

    const halted = await scenario("Halted", "Running");
    assertConflict(
      await put(halted.name, "stop", { gracePeriod: 30 }),
      halted.name,
      "Halted only supports manual stop requests with a shorter graceperiod",
    );
    assert.equal((await put(halted.name, "stop", { gracePeriod: 1 })).code, 202);
  });

  test("restart --force sets one second of grace; other grace periods are a bad request", async () => {
    const { name } = await scenario("Always", "Running");
    const bad = await put(name, "restart", { gracePeriodSeconds: 5 });
    assert.equal(bad.code, 400, bad.body);
    assert.equal(message(bad), "For force restart, only gracePeriod=0 is supported for now");
    assert.equal((await put(name, "restart", { gracePeriodSeconds: 0 })).code, 202);
    const vmi = await fixture.client.resource(vmiKind).get({ namespace: TEST_NAMESPACE, name });
    assert.equal(vmi.spec.terminationGracePeriodSeconds, 1);
  });

  test("dry runs answer as the real request would and write nothing", async () => {
    const halted = await scenario("Halted");
    const before = (await vm(halted.name)).metadata?.resourceVersion;
    assert.equal((await put(halted.name, "start", undefined, "?dryRun=All")).code, 202);
    const running = await scenario("Manual", "Running");
    const runningBefore = (await vm(running.name)).metadata?.resourceVersion;
    const vmiBefore = (
      await fixture.client.resource(vmiKind).get({ namespace: TEST_NAMESPACE, name: running.name })
    ).metadata?.resourceVersion;
    assert.equal((await put(running.name, "stop", { gracePeriod: 0, dryRun: ["All"] })).code, 202);
    assertConflict(
      await put(running.name, "start", { dryRun: ["All"] }),
      running.name,
      "VM is already running",
    );
    assert.equal((await vm(halted.name)).metadata?.resourceVersion, before);
    assert.equal((await vm(halted.name)).spec.runStrategy, "Halted");
    assert.equal((await vm(running.name)).metadata?.resourceVersion, runningBefore);
    const vmi = await fixture.client.resource(vmiKind).get({ namespace: TEST_NAMESPACE, name: running.name });
    assert.equal(vmi.metadata?.resourceVersion, vmiBefore);
  });

  test("a missing VM is a 404 in KubeVirt's words; a body that does not decode is a 400", async () => {
    const missing = await put("no-such-vm", "start");
    assert.equal(missing.code, 404, missing.body);
    assert.equal(message(missing), 'virtualmachine.kubevirt.io "no-such-vm" not found');
    const { name } = await scenario("Halted");
    const garbled = await fixture.call("PUT", subresourcePath("virtualmachines", name, "stop"), {
      body: '{"gracePeriod": "soon"',
    });
    assert.equal(garbled.code, 400, garbled.body);
    const wrongMethod = await fixture.call("GET", subresourcePath("virtualmachines", name, "start"));
    assert.equal(wrongMethod.code, 405, wrongMethod.body);
  });

  test("pause and unpause go to the VMI's virt-handler, with virt-api's client certificate", async () => {
    const { name } = await scenario("Always", "Running");
    const path = `/v1/namespaces/${TEST_NAMESPACE}/virtualmachineinstances/${name}/pause`;
    const paused = await fixture.call("PUT", subresourcePath("virtualmachineinstances", name, "pause"));
    assert.equal(paused.code, 200, paused.body);
    const seen = fixture.handler.requests.find((request) => request.path === path);
    assert.deepEqual(seen, { method: "PUT", path, verifiedClient: "virt-api" });

    const notPaused = await fixture.call("PUT", subresourcePath("virtualmachineinstances", name, "unpause"));
    assert.equal(notPaused.code, 409, notPaused.body);
    assert.match(message(notPaused), /VMI is not paused/);

    const pausedVmi = await scenario("Always", "Running", [{ type: "Paused", status: "True" }]);
    const again = await fixture.call(
      "PUT",
      subresourcePath("virtualmachineinstances", pausedVmi.name, "pause"),
    );
    assert.equal(again.code, 409);
    assert.match(message(again), /VMI is already paused/);
    const unpaused = await fixture.call(
      "PUT",
      subresourcePath("virtualmachineinstances", pausedVmi.name, "unpause"),
    );
    assert.equal(unpaused.code, 200, unpaused.body);
  });

  test("pause: a VMI not running is refused, a dry run is not forwarded, the handler's refusal is passed on", async () => {
    const stopped = await scenario("Always", "Scheduled");
    const refused = await fixture.call(
      "PUT",
      subresourcePath("virtualmachineinstances", stopped.name, "pause"),
    );
    assert.equal(refused.code, 409, refused.body);

    const { name } = await scenario("Always", "Running");
    const before = fixture.handler.requests.length;
    const dry = await fixture.call("PUT", subresourcePath("virtualmachineinstances", name, "pause"), {
      body: '{"dryRun":["All"]}',
    });
    assert.equal(dry.code, 200, dry.body);
    assert.equal(fixture.handler.requests.length, before);

    const handlerStatus = {
      kind: "Status",
      apiVersion: "v1",
      status: "Failure",
      code: 409,
      reason: "Conflict",
      message: "cannot pause the VMI: domain is not running",
    };
    fixture.handler.putAnswer = { code: 409, body: JSON.stringify(handlerStatus) };
    try {
      const relayed = await fixture.call("PUT", subresourcePath("virtualmachineinstances", name, "pause"));
      assert.equal(relayed.code, 409, relayed.body);
      assert.equal(message(relayed), handlerStatus.message);
    } finally {
      fixture.handler.putAnswer = { code: 200, body: "" };
    }
  });
});
