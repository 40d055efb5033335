import { type Frozen, labelsMatch, Quantity } from "../../../runtime/index.js";
import type { PersistentVolume, PersistentVolumeClaim } from "../kinds.js";
import { claimClassName, isVolumeBoundToClaim, volumeClassName } from "./claim-helpers.js";
import { volumeNodeAffinityMatches } from "./volume-topology.js";

type Labels = Readonly<Record<string, string>>;

export type VolumeMatch =
  | { readonly kind: "match"; readonly volume: Frozen<PersistentVolume> }
  /** A volume pre-bound to this claim exists but cannot be reached from this node. */
  | { readonly kind: "prebound-elsewhere" }
  | { readonly kind: "none" };

const ZERO = Quantity.parse(0);

export function storageOf(quantity: unknown): Quantity {
  return Quantity.tryParse(quantity) ?? ZERO;
}

export function claimRequest(claim: Frozen<PersistentVolumeClaim>): Quantity {
  return storageOf(claim.spec?.resources?.requests?.storage);
}

function volumeModeOf(mode: string | undefined): string {
  return mode ?? "Filesystem";
}

/** Every access mode the claim asks for is one the volume offers. */
function accessModesFit(claim: Frozen<PersistentVolumeClaim>, volume: Frozen<PersistentVolume>): boolean {
  const offered = new Set<string>(volume.spec?.accessModes ?? []);
  return (claim.spec?.accessModes ?? []).every((mode) => offered.has(mode));
}

/**
 * FindMatchingVolume on the scheduler's path (a node is given): a volume pre-bound to the claim
 * wins if big enough and reachable from the node; otherwise the smallest Available, unclaimed
 * volume of the claim's class, volume mode and access modes, matching its selector and reachable
 * from the node, with at least the requested storage. `excluded` holds volumes already chosen
 * for the pod's other claims.
 *
 * Unlike kube, a pre-bound volume the node cannot reach is reported as such rather than as "no
 * match": kube would then try dynamic provisioning on that node, giving the claim a second volume
 * the PV controller never binds (it binds the pre-bound one).
 */
export function findMatchingVolume(
  claim: Frozen<PersistentVolumeClaim>,
  volumes: readonly Frozen<PersistentVolume>[],
  nodeLabels: Labels,
  excluded: ReadonlySet<string>,
): VolumeMatch {
  const requested = claimRequest(claim);
  const className = claimClassName(claim);
  const claimMode = volumeModeOf(claim.spec?.volumeMode);
  let smallest: { volume: Frozen<PersistentVolume>; size: Quantity } | undefined;
  for (const volume of volumes) {
    if (excluded.has(volume.metadata?.name ?? "")) continue;
    if (volumeModeOf(volume.spec?.volumeMode) !== claimMode) continue;
    if (volume.metadata?.deletionTimestamp) continue;
    const size = storageOf(volume.spec?.capacity?.storage);
    const reachable = volumeNodeAffinityMatches(volume, nodeLabels);
    if (isVolumeBoundToClaim(volume, claim)) {
      if (size.compare(requested) < 0) continue;
      return reachable ? { kind: "match", volume } : { kind: "prebound-elsewhere" };
    }
    if (volume.status?.phase !== "Available" || volume.spec?.claimRef) continue;
    if (claim.spec?.selector && !labelsMatch(claim.spec.selector, volume.metadata?.labels)) continue;
    if (volumeClassName(volume) !== className || !reachable || !accessModesFit(claim, volume)) continue;
    if (size.compare(requested) < 0) continue;
    if (!smallest || smallest.size.compare(size) > 0) smallest = { volume, size };
  }
  return smallest ? { kind: "match", volume: smallest.volume } : { kind: "none" };
}
