import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { deepFreeze } from "../../runtime/index.js";
import type { Node } from "../kinds.js";
import { KVM_RESOURCE, nodeMetadataPatch, nodeStatusPatch, rfc3339Seconds } from "./node-state.js";

const NOW = Date.parse("2030-05-06T07:08:09.456Z");

describe("node metadata", () => {
  test("schedulable follows libvirt; the heartbeat is RFC 3339 in whole seconds", () => {
    assert.deepEqual(nodeMetadataPatch({ libvirtAnswers: true, kvmUsable: false, now: NOW }), {
      metadata: {
        labels: { "kubevirt.io/schedulable": "true" },
        annotations: { "kubevirt.io/heartbeat": "2030-05-06T07:08:09Z" },
      },
    });
    const lost = nodeMetadataPatch({ libvirtAnswers: false, kvmUsable: true, now: NOW });
    assert.equal(lost.metadata.labels["kubevirt.io/schedulable"], "false");
    assert.equal(rfc3339Seconds(0), "1970-01-01T00:00:00Z");
  });
});

describe("node KVM resource", () => {
  const node = (resources?: Record<string, string>): Node =>
    deepFreeze({
      metadata: { name: "n1" },
      status: { capacity: { cpu: "2", ...resources }, allocatable: { cpu: "2", ...resources } },
    }) as unknown as Node;

  test("advertised with capacity and allocatable when KVM works", () => {
    assert.deepEqual(nodeStatusPatch(node(), true), {
      status: { capacity: { [KVM_RESOURCE]: "1k" }, allocatable: { [KVM_RESOURCE]: "1k" } },
    });
    assert.equal(nodeStatusPatch(node({ [KVM_RESOURCE]: "1k" }), true), undefined);
  });

  test("removed (null in the merge patch) when KVM does not work; nothing to do when absent", () => {
    assert.deepEqual(nodeStatusPatch(node({ [KVM_RESOURCE]: "1k" }), false), {
      status: { capacity: { [KVM_RESOURCE]: null }, allocatable: { [KVM_RESOURCE]: null } },
    });
    assert.equal(nodeStatusPatch(node(), false), undefined);
  });
});
