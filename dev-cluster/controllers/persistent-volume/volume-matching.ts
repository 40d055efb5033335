import { type Frozen, labelsMatch, Quantity } from "../../../runtime/index.js";
import type { Node, PersistentVolume, PersistentVolumeClaim } from "../kinds.js";
import { termMatches } from "../scheduling/node-affinity.js";

/**
 * Which volume suits a claim, as kube's FindMatchingVolume and checkVolumeSatisfyClaim decide:
 * class, access modes, volumeMode, size, the claim's label selector, and the volume's node
 * affinity with the node the claim's first consumer was given.
 */

type Claim = Frozen<PersistentVolumeClaim>;
type Volume = Frozen<PersistentVolume>;

const BETA_CLASS = "volume.beta.kubernetes.io/storage-class";

/** GetPersistentVolume(Claim)Class: the beta annotation, else the field, else "". */
export function classOf(object: Claim | Volume): string {
  const annotated = object.metadata?.annotations?.[BETA_CLASS];
  return annotated ?? object.spec?.storageClassName ?? "";
}

export function storageOf(quantity: unknown): Quantity | undefined {
  return Quantity.tryParse(quantity);
}

const requestOf = (claim: Claim) => storageOf(claim.spec?.resources?.requests?.storage) ?? Quantity.parse(0);
const capacityOf = (volume: Volume) => storageOf(volume.spec?.capacity?.storage) ?? Quantity.parse(0);

/** The volume offers every access mode the claim asks for. */
export function accessModesFit(claim: Claim, volume: Volume): boolean {
  const offered = new Set(volume.spec?.accessModes ?? []);
  return (claim.spec?.accessModes ?? []).every((mode) => offered.has(mode));
}

/** CheckVolumeModeMismatches: both default to Filesystem. */
export function volumeModesMismatch(claim: Claim, volume: Volume): boolean {
  return (claim.spec?.volumeMode ?? "Filesystem") !== (volume.spec?.volumeMode ?? "Filesystem");
}

/** IsVolumeBoundToClaim: the claimRef names the claim, and its uid (if set) is the claim's. */
export function isVolumeBoundToClaim(volume: Volume, claim: Claim): boolean {
  const ref = volume.spec?.claimRef;
  if (!ref) return false;
  if (ref.name !== claim.metadata?.name || ref.namespace !== claim.metadata?.namespace) return false;
  return !ref.uid || ref.uid === claim.metadata?.uid;
}

/** The volume's required node affinity admits the node (a volume without one fits every node). */
export function volumeFitsNode(volume: Volume, node: Frozen<Node>): boolean {
  const terms = volume.spec?.nodeAffinity?.required?.nodeSelectorTerms;
  if (!terms) return true;
  return terms.some((term) => termMatches(term, node));
}

/** checkVolumeSatisfyClaim, for a claim that names its volume: the reason it does not fit, or undefined. */
export function volumeMismatch(volume: Volume, claim: Claim): string | undefined {
  if (volume.metadata?.deletionTimestamp)
    return `the volume is marked for deletion "${volume.metadata.name}"`;
  if (capacityOf(volume).compare(requestOf(claim)) < 0) return "requested PV is too small";
  if (classOf(volume) !== classOf(claim)) return "storageClassName does not match";
  if (volumeModesMismatch(claim, volume)) return "incompatible volumeMode";
  if (!accessModesFit(claim, volume)) return "incompatible accessMode";
  return undefined;
}

export interface MatchOptions {
  /** The claim's class binds at its first consumer (WaitForFirstConsumer). */
  delayBinding: boolean;
  /** The node chosen for the first consumer, when there is one. */
  node: Frozen<Node> | undefined;
}

/**
 * The best volume for a claim: one pre-bound to it if any (when its node affinity allows the
 * chosen node), else the smallest Available, unclaimed volume that fits. A claim that binds at
 * its first consumer is matched with unclaimed volumes only once it has a node.
 */
export function findMatchingVolume(
  claim: Claim,
  volumes: readonly Volume[],
  options: MatchOptions,
): Volume | undefined {
  const requested = requestOf(claim);
  const requestedClass = classOf(claim);
  const selector = claim.spec?.selector;
  let best: Volume | undefined;
  for (const volume of volumes) {
    if (!accessModesFit(claim, volume)) continue;
    if (volumeModesMismatch(claim, volume)) continue;
    if (volume.metadata?.deletionTimestamp) continue;
    const fitsNode = options.node === undefined || volumeFitsNode(volume, options.node);
    if (isVolumeBoundToClaim(volume, claim)) return fitsNode ? volume : undefined;
    if (options.node === undefined && options.delayBinding) continue;
    if (volume.status?.phase !== "Available" || volume.spec?.claimRef) continue;
    if (selector && !labelsMatch(selector, volume.metadata?.labels ?? {})) continue;
    if (classOf(volume) !== requestedClass || !fitsNode) continue;
    const capacity = capacityOf(volume);
    if (capacity.compare(requested) < 0) continue;
    if (!best || capacityOf(best).compare(capacity) > 0) best = volume;
  }
  return best;
}
