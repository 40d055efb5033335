// Probes at admission: what the node runs (httpGet, tcpSocket against the pod's address) is accepted
// with a pod network; what runs in the guest through its agent (exec, guestAgentPing) with or without.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { withEdits } from "../testing/json-edit.js";
import { loadTestManifest } from "../testing/testdata.js";
import { validateVirtualMachineInstance } from "./object-validation.js";

function causesOf(...edits: [string, unknown][]) {
  return validateVirtualMachineInstance(withEdits(loadTestManifest("vmi-emptydisk.yaml"), ...edits));
}

describe("VMI probes at admission", () => {
  test("httpGet and tcpSocket probes are accepted", () => {
    assert.deepEqual(
      causesOf(
        ["spec.readinessProbe", { httpGet: { port: 80 } }],
        ["spec.livenessProbe", { tcpSocket: { port: 22 } }],
      ),
      [],
    );
  });

  test("exec and guestAgentPing are accepted, also without a pod network (they run through the agent)", () => {
    assert.deepEqual(
      causesOf(
        ["spec.domain.devices.autoattachPodInterface", false],
        ["spec.readinessProbe", { exec: { command: ["cat", "/tmp/ready"] } }],
        ["spec.livenessProbe", { guestAgentPing: {} }],
      ),
      [],
    );
    const both = causesOf(["spec.readinessProbe", { exec: { command: ["true"] }, guestAgentPing: {} }]);
    assert.match(both[0]?.message ?? "", /must have exactly one probe type set/);
  });

  test("a network probe without the pod network is refused, as KubeVirt does", () => {
    const causes = causesOf(
      ["spec.domain.devices.autoattachPodInterface", false],
      ["spec.readinessProbe", { tcpSocket: { port: 80 } }],
    );
    assert.ok(
      causes.some(
        (cause) =>
          cause.field === "spec.readinessProbe.tcpSocket" &&
          /is only allowed if the Pod Network is attached/.test(cause.message),
      ),
      JSON.stringify(causes),
    );
  });
});
