// What virt-handler says about its node, computed from what it observes (pure, so it is tested
// without a cluster): the heartbeat annotation, the schedulable label (true only while libvirt
// answers and the programs it runs are installed), the KVM device resource (only when KVM really
// works) and the host-tools condition.
import { ANNOTATIONS, LABELS } from "../../api/index.js";
import { type Frozen, wireTime } from "../../runtime/index.js";
import type { Node } from "../kinds.js";
import type { HostToolsReport } from "./host-tools.js";
import { conditionsWithHostTools } from "./host-tools-condition.js";

/** The extended resource launcher pods request unless emulation is allowed (KubeVirt's device plugin name). */
export const KVM_RESOURCE = "devices.kubevirt.io/kvm";
/** How many VMs may use /dev/kvm at once (KubeVirt advertises a large fixed number too). */
export const KVM_CAPACITY = "1k";

export interface NodeFacts {
  /** libvirt answered the last call. */
  readonly libvirtAnswers: boolean;
  readonly kvmUsable: boolean;
  /** What checkHostTools found on this beat. */
  readonly hostTools: HostToolsReport;
  readonly now: number;
}

/** VMs may be scheduled here: libvirt answers and nothing virt-handler runs is missing. */
function schedulable(facts: NodeFacts): boolean {
  return facts.libvirtAnswers && facts.hostTools.missing.length === 0;
}

/** The merge patch of the node's metadata: written on every heartbeat (the timestamp always changes). */
export function nodeMetadataPatch(facts: NodeFacts): {
  metadata: { labels: Record<string, string>; annotations: Record<string, string> };
} {
  return {
    metadata: {
      labels: { [LABELS.nodeSchedulable]: schedulable(facts) ? "true" : "false" },
      annotations: { [ANNOTATIONS.heartbeat]: wireTime(facts.now) },
    },
  };
}

/**
 * The merge patch of the node's status that makes its KVM resource match `kvmUsable` (advertised
 * with capacity and allocatable, or removed) and its host-tools condition match `hostTools`, or
 * undefined when the node already says so. A merge patch replaces the whole conditions list, so one
 * that carries it also carries the node's resourceVersion: a kubelet's write in between makes it a
 * conflict (retried on the next beat) instead of being undone.
 */
export function nodeStatusPatch(node: Frozen<Node> | undefined, facts: NodeFacts): unknown {
  const resources = kvmResourcePatch(node, facts.kvmUsable);
  const conditions = conditionsWithHostTools(node?.status?.conditions, facts.hostTools, wireTime(facts.now));
  if (resources === undefined && conditions === undefined) return undefined;
  const resourceVersion = node?.metadata?.resourceVersion;
  return {
    ...(conditions && resourceVersion !== undefined ? { metadata: { resourceVersion } } : {}),
    status: { ...resources, ...(conditions ? { conditions } : {}) },
  };
}

/** capacity and allocatable entries for the KVM resource, or undefined when they are right. */
function kvmResourcePatch(
  node: Frozen<Node> | undefined,
  kvmUsable: boolean,
): { capacity: Record<string, string | null>; allocatable: Record<string, string | null> } | undefined {
  const capacity = node?.status?.capacity?.[KVM_RESOURCE];
  const allocatable = node?.status?.allocatable?.[KVM_RESOURCE];
  const wanted = kvmUsable ? KVM_CAPACITY : undefined;
  if (capacity === wanted && allocatable === wanted) return undefined;
  const value = wanted ?? null; // null removes the entry in a merge patch
  return { capacity: { [KVM_RESOURCE]: value }, allocatable: { [KVM_RESOURCE]: value } };
}
