// What virt-handler says about its node, computed from what it observes (pure, so it is tested
// without a cluster): the heartbeat annotation, the schedulable label (true only while libvirt
// answers) and the KVM device resource (only when KVM really works).
import { ANNOTATIONS, LABELS } from "../../api/index.js";
import type { Frozen } from "../../runtime/index.js";
import type { Node } from "../kinds.js";

/** The extended resource launcher pods request unless emulation is allowed (KubeVirt's device plugin name). */
export const KVM_RESOURCE = "devices.kubevirt.io/kvm";
/** How many VMs may use /dev/kvm at once (KubeVirt advertises a large fixed number too). */
export const KVM_CAPACITY = "1k";

export interface NodeFacts {
  /** libvirt answered the last call. */
  readonly libvirtAnswers: boolean;
  readonly kvmUsable: boolean;
  readonly now: number;
}

/** metav1.Time: RFC 3339 in whole seconds, as KubeVirt writes the heartbeat. */
export function rfc3339Seconds(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** The merge patch of the node's metadata: written on every heartbeat (the timestamp always changes). */
export function nodeMetadataPatch(facts: NodeFacts): {
  metadata: { labels: Record<string, string>; annotations: Record<string, string> };
} {
  return {
    metadata: {
      labels: { [LABELS.nodeSchedulable]: facts.libvirtAnswers ? "true" : "false" },
      annotations: { [ANNOTATIONS.heartbeat]: rfc3339Seconds(facts.now) },
    },
  };
}

/**
 * The merge patch of the node's status that makes its KVM resource match `kvmUsable` (advertised
 * with capacity and allocatable, or removed), or undefined when the node already says so.
 */
export function nodeStatusPatch(node: Frozen<Node> | undefined, kvmUsable: boolean): unknown {
  const capacity = node?.status?.capacity?.[KVM_RESOURCE];
  const allocatable = node?.status?.allocatable?.[KVM_RESOURCE];
  const wanted = kvmUsable ? KVM_CAPACITY : undefined;
  if (capacity === wanted && allocatable === wanted) return undefined;
  const value = wanted ?? null; // null removes the entry in a merge patch
  return { status: { capacity: { [KVM_RESOURCE]: value }, allocatable: { [KVM_RESOURCE]: value } } };
}
