// Probes at admission: what the node runs (httpGet, tcpSocket against the pod's address) is accepted
// with a pod network; what would run in the guest (exec, guestAgentPing) is refused with the reason.
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

  test("exec and guestAgentPing are refused, naming the field and what to use instead", () => {
    const exec = causesOf(["spec.readinessProbe", { exec: { command: ["cat", "/tmp/ready"] } }]);
    assert.equal(exec[0]?.field, "spec.readinessProbe.exec");
    assert.match(exec[0]?.message ?? "", /not supported yet: .*guest agent; use httpGet or tcpSocket/);
    const ping = causesOf(["spec.livenessProbe", { guestAgentPing: {} }]);
    assert.equal(ping[0]?.field, "spec.livenessProbe.guestAgentPing");
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
