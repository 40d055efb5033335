import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { deepFreeze, wireTime } from "../../runtime/index.js";
import type { Node } from "../kinds.js";
import { HOST_TOOLS, type HostToolsReport } from "./host-tools.js";
import { HOST_TOOLS_CONDITION, type NodeCondition } from "./host-tools-condition.js";
import { KVM_RESOURCE, type NodeFacts, nodeMetadataPatch, nodeStatusPatch } from "./node-state.js";

const NOW = Date.parse("2030-05-06T07:08:09.456Z");
const INSTALLED: HostToolsReport = { found: ["/usr/bin/qemu-img", "/usr/bin/genisoimage"], missing: [] };
const NO_ISO_WRITER: HostToolsReport = {
  found: ["/usr/bin/qemu-img"],
  missing: HOST_TOOLS.filter((tool) => tool.commands.includes("genisoimage")),
};
const facts = (overrides: Partial<NodeFacts> = {}): NodeFacts => ({
  libvirtAnswers: true,
  kvmUsable: false,
  hostTools: INSTALLED,
  now: NOW,
  ...overrides,
});

const READY: NodeCondition = {
  type: "Ready",
  status: "True",
  reason: "KubeletReady",
  lastHeartbeatTime: "2030-05-06T07:00:00Z",
  lastTransitionTime: "2030-05-06T06:00:00Z",
};

function node(resources?: Record<string, string>, conditions: NodeCondition[] = [READY]): Node {
  return deepFreeze({
    metadata: { name: "n1", resourceVersion: "42" },
    status: { capacity: { cpu: "2", ...resources }, allocatable: { cpu: "2", ...resources }, conditions },
  }) as unknown as Node;
}

/** The conditions a status patch writes (a merge patch replaces the list). */
function patchedConditions(patch: unknown): NodeCondition[] | undefined {
  return (patch as { status?: { conditions?: NodeCondition[] } } | undefined)?.status?.conditions;
}

describe("node metadata", () => {
  test("schedulable follows libvirt; the heartbeat is RFC 3339 in whole seconds", () => {
    assert.deepEqual(nodeMetadataPatch(facts()), {
      metadata: {
        labels: { "kubevirt.io/schedulable": "true" },
        annotations: { "kubevirt.io/heartbeat": "2030-05-06T07:08:09Z" },
      },
    });
    const lost = nodeMetadataPatch(facts({ libvirtAnswers: false, kvmUsable: true }));
    assert.equal(lost.metadata.labels["kubevirt.io/schedulable"], "false");
    assert.equal(wireTime(0), "1970-01-01T00:00:00Z");
  });

  test("a node that lacks a host tool is not schedulable, even while libvirt answers", () => {
    const patch = nodeMetadataPatch(facts({ hostTools: NO_ISO_WRITER }));
    assert.equal(patch.metadata.labels["kubevirt.io/schedulable"], "false");
  });
});

describe("node KVM resource", () => {
  const kvmOnly = (kvmUsable: boolean, resources?: Record<string, string>) =>
    nodeStatusPatch(node(resources, [READY, installedCondition()]), facts({ kvmUsable }));

  test("advertised with capacity and allocatable when KVM works", () => {
    assert.deepEqual(kvmOnly(true), {
      status: { capacity: { [KVM_RESOURCE]: "1k" }, allocatable: { [KVM_RESOURCE]: "1k" } },
    });
    assert.equal(kvmOnly(true, { [KVM_RESOURCE]: "1k" }), undefined);
  });

  test("removed (null in the merge patch) when KVM does not work; nothing to do when absent", () => {
    assert.deepEqual(kvmOnly(false, { [KVM_RESOURCE]: "1k" }), {
      status: { capacity: { [KVM_RESOURCE]: null }, allocatable: { [KVM_RESOURCE]: null } },
    });
    assert.equal(kvmOnly(false), undefined);
  });
});

/** The condition as the patch for INSTALLED writes it at `time`. */
function installedCondition(time = "2030-05-06T07:08:09Z"): NodeCondition {
  const written = patchedConditions(nodeStatusPatch(node(), facts()))?.find(
    (condition) => condition.type === HOST_TOOLS_CONDITION,
  );
  assert.ok(written);
  return { ...written, lastHeartbeatTime: time, lastTransitionTime: time };
}

describe("node host-tools condition", () => {
  test("a missing tool: True, named with the fix; the kubelet's conditions kept; a resourceVersion precondition", () => {
    const patch = nodeStatusPatch(node(), facts({ hostTools: NO_ISO_WRITER })) as {
      metadata?: { resourceVersion?: string };
    };
    assert.equal(patch.metadata?.resourceVersion, "42");
    const [ready, ours, ...rest] = patchedConditions(patch) ?? [];
    assert.deepEqual(ready, READY);
    assert.deepEqual(rest, []);
    assert.equal(ours?.type, "KubeVirtHostToolsMissing");
    assert.equal(ours?.status, "True");
    assert.equal(ours?.reason, "HostToolsMissing");
    assert.match(ours?.message ?? "", /xorriso or genisoimage/);
    assert.match(ours?.message ?? "", /Install them \(npm run setup-host, or the virt-handler image\)/);
    assert.equal(ours?.lastTransitionTime, "2030-05-06T07:08:09Z");
  });

  test("all installed: False; nothing to write once the node says so", () => {
    const ours = installedCondition();
    assert.equal(ours.status, "False");
    assert.equal(ours.reason, "HostToolsInstalled");
    assert.match(ours.message ?? "", /\/usr\/bin\/genisoimage/);
    assert.equal(nodeStatusPatch(node(undefined, [READY, ours]), facts()), undefined);
  });

  test("the tool installed later: False, with a new transition time", () => {
    const missing = patchedConditions(nodeStatusPatch(node(), facts({ hostTools: NO_ISO_WRITER }))) ?? [];
    const later = NOW + 60_000;
    const conditions = patchedConditions(nodeStatusPatch(node(undefined, missing), facts({ now: later })));
    const ours = conditions?.find((condition) => condition.type === HOST_TOOLS_CONDITION);
    assert.equal(ours?.status, "False");
    assert.equal(ours?.lastTransitionTime, "2030-05-06T07:09:09Z");
    assert.equal(conditions?.length, 2);
  });

  test("another tool found, still all installed: the message changes, the transition time does not", () => {
    const before = installedCondition("2030-01-01T00:00:00Z");
    const xorriso: HostToolsReport = { found: ["/usr/bin/qemu-img", "/usr/bin/xorriso"], missing: [] };
    const conditions = patchedConditions(
      nodeStatusPatch(node(undefined, [before]), facts({ hostTools: xorriso })),
    );
    assert.equal(conditions?.[0]?.lastTransitionTime, "2030-01-01T00:00:00Z");
    assert.match(conditions?.[0]?.message ?? "", /xorriso/);
  });
});
