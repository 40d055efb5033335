import { lstatSync, mkdirSync, statSync, symlinkSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { type Frozen, nodeSelectorRequirementMatches } from "../../../runtime/index.js";
import type { CachedPod, Node, PersistentVolume } from "../kinds.js";
import type { ConfigSources } from "./container-config.js";
import { CompleteVolumeError, VolumeError } from "./volume-error.js";

/** The PVs behind a pod's persistentVolumeClaim volumes, by volume name. */
export type ClaimedVolumes = ReadonlyMap<string, Frozen<PersistentVolume>>;

/**
 * Finds the bound PV of every persistentVolumeClaim volume, as kubelet's volume manager does
 * before it mounts anything: a claim that is missing, being deleted without its protection,
 * unbound, or whose PV is missing or names another claim stops the pod with kubelet's
 * "Unable to attach or mount volumes" message, which names every volume that failed.
 */
export async function resolveClaimedVolumes(pod: CachedPod, sources: ConfigSources): Promise<ClaimedVolumes> {
  const namespace = pod.metadata?.namespace ?? "";
  const claimed = new Map<string, Frozen<PersistentVolume>>();
  const failures: { volume: string; message: string }[] = [];
  for (const volume of pod.spec?.volumes ?? []) {
    const claimName = volume.persistentVolumeClaim?.claimName;
    if (claimName === undefined) continue;
    try {
      claimed.set(volume.name, await boundVolume(namespace, claimName, sources));
    } catch (error) {
      if (!(error instanceof VolumeError)) throw error;
      failures.push({
        volume: volume.name,
        message: `error processing PVC ${namespace}/${claimName}: ${error.message}`,
      });
    }
    const pv = claimed.get(volume.name);
    const mode = pv?.spec?.volumeMode ?? "Filesystem";
    if (pv && mode !== "Filesystem" && mountedByAContainer(pod, volume.name)) {
      claimed.delete(volume.name);
      failures.push({
        volume: volume.name,
        message: `volume ${volume.name} has volumeMode ${mode}, but is specified in volumeMounts`,
      });
    }
  }
  if (failures.length > 0) {
    const names = failures.map((failure) => failure.volume).sort();
    throw new CompleteVolumeError(
      `Unable to attach or mount volumes: unmounted volumes=[${names.join(" ")}], unattached volumes=[], ` +
        `failed to process volumes=[${names.join(" ")}]: ${failures.map((failure) => failure.message).join("; ")}`,
    );
  }
  return claimed;
}

async function boundVolume(
  namespace: string,
  claimName: string,
  sources: ConfigSources,
): Promise<Frozen<PersistentVolume>> {
  const claim = await sources.persistentVolumeClaim(namespace, claimName);
  if (!claim) {
    throw new VolumeError(
      `failed to fetch PVC from API server: persistentvolumeclaims "${claimName}" not found`,
    );
  }
  // A claim kept by its protection finalizer may still be used by the pods that had it.
  if (
    claim.metadata?.deletionTimestamp &&
    !claim.metadata.finalizers?.includes("kubernetes.io/pvc-protection")
  ) {
    throw new VolumeError("PVC is being deleted");
  }
  if (claim.status?.phase !== "Bound") throw new VolumeError("PVC is not bound");
  const volumeName = claim.spec?.volumeName;
  if (!volumeName) throw new VolumeError("PVC has empty pvc.Spec.VolumeName");
  const volume = await sources.persistentVolume(volumeName);
  if (!volume) {
    throw new VolumeError(
      `failed to fetch PV ${volumeName} from API server: persistentvolumes "${volumeName}" not found`,
    );
  }
  const claimRef = volume.spec?.claimRef;
  if (!claimRef) {
    throw new VolumeError(
      `found PV object ${volumeName} but it has a nil pv.Spec.ClaimRef indicating it is not yet bound to the claim`,
    );
  }
  if (claimRef.uid !== claim.metadata?.uid) {
    throw new VolumeError(
      `found PV object ${volumeName} but its pv.Spec.ClaimRef.UID ${claimRef.uid ?? ""} does not point to claim.UID ${claim.metadata?.uid ?? ""}`,
    );
  }
  return volume;
}

function mountedByAContainer(pod: CachedPod, volumeName: string): boolean {
  return [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].some((container) =>
    container.volumeMounts?.some((mount) => mount.name === volumeName),
  );
}

export interface ClaimMountContext {
  pod: CachedPod;
  podDir: string;
  node: Frozen<Node> | undefined;
  /** A hostPath PV is checked and made as a hostPath volume is. */
  prepareHostPath(path: string, type: string): string;
}

/**
 * The host path of a claimed PV on this node, as kubelet mounts it: a `local` PV's directory
 * appears at `volumes/kubernetes.io~local-volume/<PV name>` (a symlink here, a bind mount there),
 * a `hostPath` PV is its path. The PV's node affinity must admit this node.
 */
export function mountClaimedVolume(volume: Frozen<PersistentVolume>, context: ClaimMountContext): string {
  const name = volume.metadata?.name ?? "";
  const plugin = volume.spec?.local ? "local-volume" : volume.spec?.hostPath ? "host-path" : undefined;
  if (!plugin) {
    throw new CompleteVolumeError(
      `MountVolume.SetUp failed for volume "${name}" : the node agent mounts only local and hostPath persistent volumes`,
    );
  }
  if (!nodeAffinityAdmits(volume, context.node)) {
    throw new CompleteVolumeError(
      `MountVolume.NodeAffinity check failed for volume "${name}" : no matching NodeSelectorTerms`,
    );
  }
  const hostPath = volume.spec?.hostPath;
  if (hostPath) {
    try {
      return context.prepareHostPath(hostPath.path, hostPath.type ?? "");
    } catch (error) {
      if (!(error instanceof VolumeError) || error instanceof CompleteVolumeError) throw error;
      throw new CompleteVolumeError(`MountVolume.SetUp failed for volume "${name}" : ${error.message}`, {
        cause: error,
      });
    }
  }
  const path = volume.spec?.local?.path ?? "";
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    throw new CompleteVolumeError(
      `MountVolume.NewMounter initialization failed for volume "${name}" : path "${path}" does not exist`,
    );
  }
  if (!isDirectory) {
    throw new CompleteVolumeError(
      `MountVolume.SetUp failed for volume "${name}" : path "${path}" is not a directory`,
    );
  }
  const dir = join(context.podDir, "volumes", "kubernetes.io~local-volume");
  mkdirSync(dir, { recursive: true });
  const link = join(dir, name);
  replaceLink(link, path);
  return link;
}

/** `link` -> `target`, replacing an earlier link (a retry, a restarted agent), never anything else. */
function replaceLink(link: string, target: string): void {
  let existing: ReturnType<typeof lstatSync> | undefined;
  try {
    existing = lstatSync(link);
  } catch {
    existing = undefined;
  }
  if (existing && !existing.isSymbolicLink()) {
    throw new CompleteVolumeError(`MountVolume.SetUp failed: ${link} exists and is not a link`);
  }
  if (existing) unlinkSync(link);
  symlinkSync(target, link);
}

/** A PV without required node affinity is usable anywhere; one with it, where a term matches. */
function nodeAffinityAdmits(volume: Frozen<PersistentVolume>, node: Frozen<Node> | undefined): boolean {
  const terms = volume.spec?.nodeAffinity?.required?.nodeSelectorTerms;
  if (!terms) return true;
  const labels = node?.metadata?.labels ?? {};
  const fields = { "metadata.name": node?.metadata?.name ?? "" };
  return terms.some(
    (term) =>
      (term.matchExpressions?.length ?? 0) + (term.matchFields?.length ?? 0) > 0 &&
      (term.matchExpressions ?? []).every((requirement) =>
        nodeSelectorRequirementMatches(requirement, labels),
      ) &&
      (term.matchFields ?? []).every((requirement) => nodeSelectorRequirementMatches(requirement, fields)),
  );
}
