import type { Frozen } from "../../../runtime/index.js";
import type { PersistentVolume, PersistentVolumeClaim } from "../kinds.js";
import { ANN_SELECTED_NODE, claimClassName, NO_PROVISIONER } from "./claim-helpers.js";
import type { PodVolumeClaims, VolumeLookup } from "./pod-volume-claims.js";
import { claimRequest, findMatchingVolume } from "./volume-matching.js";
import { classAllowsNode, volumeNodeAffinityMatches } from "./volume-topology.js";

export const REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
export const REASON_NODE_CONFLICT = "node(s) had volume node affinity conflict";
export const REASON_PV_NOT_EXIST =
  "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";

export interface StaticBinding {
  readonly volume: Frozen<PersistentVolume>;
  readonly claim: Frozen<PersistentVolumeClaim>;
}

/** What the pod's volumes need on one node (kube's PodVolumes), or why they cannot have it. */
export interface PodVolumesOnNode {
  /** Conflict reasons in kube's order; empty when the node fits. */
  readonly reasons: readonly string[];
  /** Available volumes to pre-bind to the pod's unbound claims (their claimRef is written). */
  readonly staticBindings: readonly StaticBinding[];
  /** Claims to provision on this node (their selected-node annotation is written). */
  readonly dynamicProvisions: readonly Frozen<PersistentVolumeClaim>[];
}

export interface NodeView {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
}

const nothingToDo: PodVolumesOnNode = { reasons: [], staticBindings: [], dynamicProvisions: [] };

/** checkBoundClaims: every bound claim's volume exists and its node affinity admits the node. */
function boundClaimsReason(
  bound: readonly Frozen<PersistentVolumeClaim>[],
  node: NodeView,
  lookup: VolumeLookup,
): string | undefined {
  for (const claim of bound) {
    const volume = lookup.volume(claim.spec?.volumeName ?? "");
    if (!volume) return REASON_PV_NOT_EXIST;
    if (!volumeNodeAffinityMatches(volume, node.labels)) return REASON_NODE_CONFLICT;
  }
  return undefined;
}

/** checkVolumeProvisions: the class has a real provisioner and its allowedTopologies admit the node. */
function canProvision(claim: Frozen<PersistentVolumeClaim>, node: NodeView, lookup: VolumeLookup): boolean {
  const storageClass = lookup.storageClass(claimClassName(claim));
  if (!storageClass) return false;
  const provisioner = storageClass.provisioner ?? "";
  if (provisioner === "" || provisioner === NO_PROVISIONER) return false;
  return classAllowsNode(storageClass, node.labels);
}

/**
 * FindPodVolumes for one node: bound claims need a reachable volume; each unbound
 * WaitForFirstConsumer claim either carries selected-node (then only that node will do, and it is
 * provisioned there), matches an Available volume reachable from the node (smallest first, each
 * volume used once), or is provisioned on the node if its class can.
 */
export function findPodVolumes(
  claims: PodVolumeClaims,
  node: NodeView,
  lookup: VolumeLookup,
): PodVolumesOnNode {
  if (claims.kind !== "claims") return nothingToDo;
  const reasons: string[] = [];
  const boundReason = boundClaimsReason(claims.bound, node, lookup);
  if (boundReason === REASON_NODE_CONFLICT) reasons.push(boundReason);
  const staticBindings: StaticBinding[] = [];
  const dynamicProvisions: Frozen<PersistentVolumeClaim>[] = [];
  let unboundSatisfied = true;
  const toMatch: Frozen<PersistentVolumeClaim>[] = [];
  for (const claim of claims.delayed) {
    const selected = claim.metadata?.annotations?.[ANN_SELECTED_NODE];
    if (selected === undefined) toMatch.push(claim);
    else if (selected !== node.name) unboundSatisfied = false;
    else dynamicProvisions.push(claim);
  }
  if (unboundSatisfied) {
    // Smallest requests first, so that they get the smallest volumes (kube's byPVCSize).
    toMatch.sort((a, b) => claimRequest(a).compare(claimRequest(b)));
    const chosen = new Set<string>();
    for (const claim of toMatch) {
      const match = findMatchingVolume(
        claim,
        claims.volumesByClass.get(claimClassName(claim)) ?? [],
        node.labels,
        chosen,
      );
      if (match.kind === "match") {
        chosen.add(match.volume.metadata?.name ?? "");
        staticBindings.push({ volume: match.volume, claim });
      } else if (match.kind === "prebound-elsewhere") {
        unboundSatisfied = false;
      } else {
        dynamicProvisions.push(claim);
      }
    }
    if (unboundSatisfied && !dynamicProvisions.every((claim) => canProvision(claim, node, lookup))) {
      unboundSatisfied = false;
    }
  }
  if (!unboundSatisfied) reasons.push(REASON_BIND_CONFLICT);
  if (boundReason === REASON_PV_NOT_EXIST) reasons.push(boundReason);
  if (reasons.length > 0) return { reasons, staticBindings: [], dynamicProvisions: [] };
  return { reasons, staticBindings, dynamicProvisions };
}
