// Where a VMI's launcher pod keeps its volumes on this node: the kubelet's
// `<pods dir>/<pod uid>/volumes/kubernetes.io~secret/<volume name>`. virt-handler reads the Secrets
// a VMI references from there (storage/cloud-init-secrets.ts): the kubelet fetched them with the
// node's credentials, for a pod of the VMI's own namespace, so no RBAC on Secrets is needed.
// Every part of the path is ours or checked: the pods directory (a flag), the pod's uid (a UUID),
// the volume name (a DNS label the pod's spec declares as a secret volume of that Secret).
//
// A claim's volume is where the kubelet mounted the claim's PersistentVolume for the pod, under the
// PV's name: `kubernetes.io~local-volume/<pv>` for a local volume, `kubernetes.io~csi/<pv>/mount` for
// a CSI one. The PV's name is the claim's `spec.volumeName`, read from the API (the claim is the
// pod's, in the VMI's namespace); the provisioner's own paths are never guessed.
import { realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import type { IPersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import { type Frozen, Quantity, type SharedInformer } from "../../runtime/index.js";
import { VmiConversionError } from "../converter/conversion-error.js";
import type { Pod, Vmi } from "../kinds.js";
import type { ClaimVolume } from "../storage/claim-disk.js";
import type { LauncherPodVolumes } from "../storage/index.js";
import { CREATED_BY_INDEX, launcherPodFor } from "./launcher-pod.js";

/** The kubelet's pods directory on a node (KubeVirt's virt-handler mounts it from the host). */
export const DEFAULT_KUBELET_PODS_DIR = "/var/lib/kubelet/pods";

const POD_UID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** KubeVirt's label of a hotplug attachment pod. */
export const HOTPLUG_POD_LABEL = { key: "kubevirt.io", value: "hotplug-disk" } as const;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** How the kubelet lays out a PersistentVolume it mounted for a pod, by volume plugin. */
const MOUNTED_VOLUME_PATHS: readonly ((pvName: string) => string)[] = [
  (pv) => join("kubernetes.io~local-volume", pv),
  (pv) => join("kubernetes.io~csi", pv, "mount"),
];

export interface KubeletPodVolumesOptions {
  /** The kubelet's pods directory as this process sees it (--kubelet-pods-dir). */
  readonly podsDir: string;
  /** Pods of this node, indexed by CREATED_BY_INDEX (the pod informer's cache). */
  readonly pods: Pick<SharedInformer<Pod>, "byIndex" | "list">;
  /** Reads a claim from the API; undefined when there is none. */
  readonly claim: (namespace: string, name: string) => Promise<IPersistentVolumeClaim | undefined>;
}

export class KubeletPodVolumes {
  readonly #options: KubeletPodVolumesOptions;

  constructor(options: KubeletPodVolumesOptions) {
    this.#options = options;
  }

  /** The volumes of the VMI's launcher pod; the pod is looked up only when a volume is asked for. */
  of(vmi: Frozen<Vmi>): LauncherPodVolumes {
    return {
      secretVolumeDir: (podVolumeName, secretName) => this.#secretVolumeDir(vmi, podVolumeName, secretName),
      imagePullSecretNames: () => this.#imagePullSecretNames(vmi),
      claimVolume: (podVolumeName, claimName) => this.#claimVolume(vmi, podVolumeName, claimName),
    };
  }

  async #claimVolume(vmi: Frozen<Vmi>, podVolumeName: string, claimName: string): Promise<ClaimVolume> {
    return this.claimVolumeOfPod(this.#launcherPod(vmi, podVolumeName), podVolumeName, claimName);
  }

  /**
   * The VMI's hotplug attachment pods on this node (virt-controller's `hp-volume-*`, owned by the
   * VMI), running, that mount `podVolumeName` from `claimName`: the newest first.
   */
  attachmentPodsWith(vmi: Frozen<Vmi>, podVolumeName: string, claimName: string): Frozen<Pod>[] {
    const uid = vmi.metadata?.uid ?? "";
    return this.#options.pods
      .list()
      .filter(
        (pod) =>
          pod.metadata?.namespace === vmi.metadata?.namespace &&
          pod.metadata?.labels?.[HOTPLUG_POD_LABEL.key] === HOTPLUG_POD_LABEL.value &&
          pod.metadata?.ownerReferences?.some((owner) => owner.uid === uid) === true &&
          pod.status?.phase === "Running" &&
          pod.spec?.volumes?.some(
            (volume) =>
              volume.name === podVolumeName && volume.persistentVolumeClaim?.claimName === claimName,
          ) === true,
      )
      .sort((a, b) =>
        (b.metadata?.creationTimestamp ?? "").localeCompare(a.metadata?.creationTimestamp ?? ""),
      );
  }

  /** The pod's volume `podVolumeName` of claim `claimName` where the kubelet mounted it, with the claim's size. */
  async claimVolumeOfPod(pod: Frozen<Pod>, podVolumeName: string, claimName: string): Promise<ClaimVolume> {
    if (podVolumeName.length > 63 || !DNS1123_LABEL.test(podVolumeName)) {
      throw new VmiConversionError("InvalidSpec", `"${podVolumeName}" is not a pod volume name`);
    }
    const podName = pod.metadata?.name ?? "";
    const declared = pod.spec?.volumes?.find((volume) => volume.name === podVolumeName);
    if (declared?.persistentVolumeClaim?.claimName !== claimName) {
      throw new VmiConversionError(
        "UnsupportedVolume",
        `the launcher pod ${podName} has no volume ${podVolumeName} of claim "${claimName}" (it was created without it): recreate the VMI`,
      );
    }
    const claim = await this.#options.claim(pod.metadata?.namespace ?? "", claimName);
    const pvName = claim?.spec?.volumeName ?? "";
    if (claim === undefined || claim.status?.phase !== "Bound" || pvName === "") {
      throw new VmiConversionError(
        "VolumePreparationFailed",
        `claim ${claimName} is ${claim === undefined ? "gone" : "not bound yet"}`,
      );
    }
    if (pvName.length > 253 || !DNS1123_SUBDOMAIN.test(pvName)) {
      throw new Error(`claim ${claimName} is bound to "${pvName}", which is not a PersistentVolume name`);
    }
    const dir = await this.#mountedVolumeDir(pod, pvName);
    if (dir === undefined) {
      throw new VmiConversionError(
        "VolumePreparationFailed",
        `claim ${claimName} (volume ${pvName}) is not mounted for the launcher pod ${podName} on this node yet`,
      );
    }
    return {
      dir,
      requestBytes: bytesOf(claim.spec?.resources?.requests?.storage),
      capacityBytes: bytesOf(claim.status?.capacity?.storage),
    };
  }

  async #mountedVolumeDir(pod: Frozen<Pod>, pvName: string): Promise<string | undefined> {
    const volumesDir = join(this.#options.podsDir, podUidOf(pod), "volumes");
    for (const layout of MOUNTED_VOLUME_PATHS) {
      const dir = await realpath(join(volumesDir, layout(pvName))).catch(() => undefined);
      if (dir !== undefined && (await stat(dir)).isDirectory()) return dir;
    }
    return undefined;
  }

  #launcherPod(vmi: Frozen<Vmi>, podVolumeName: string): Frozen<Pod> {
    if (podVolumeName.length > 63 || !DNS1123_LABEL.test(podVolumeName)) {
      throw new VmiConversionError("InvalidSpec", `"${podVolumeName}" is not a pod volume name`);
    }
    const candidates = this.#options.pods.byIndex(CREATED_BY_INDEX, vmi.metadata?.uid ?? "");
    const pod = launcherPodFor(vmi, candidates);
    if (pod === undefined) {
      throw new VmiConversionError(
        "VolumePreparationFailed",
        `the launcher pod of the VMI is not among this node's pods yet (needed for volume ${podVolumeName})`,
      );
    }
    return pod;
  }

  #imagePullSecretNames(vmi: Frozen<Vmi>): string[] {
    const candidates = this.#options.pods.byIndex(CREATED_BY_INDEX, vmi.metadata?.uid ?? "");
    const pod = launcherPodFor(vmi, candidates);
    return (pod?.spec?.imagePullSecrets ?? []).map((ref) => ref.name ?? "").filter((name) => name !== "");
  }

  #secretVolumeDir(vmi: Frozen<Vmi>, podVolumeName: string, secretName: string): string {
    const pod = this.#launcherPod(vmi, podVolumeName);
    const podName = pod.metadata?.name ?? "";
    const declared = pod.spec?.volumes?.find((volume) => volume.name === podVolumeName);
    if (declared?.secret?.secretName !== secretName) {
      throw new VmiConversionError(
        "UnsupportedVolume",
        `the launcher pod ${podName} has no volume ${podVolumeName} of secret "${secretName}" (it was created without it): recreate the VMI`,
      );
    }
    return join(this.#options.podsDir, podUidOf(pod), "volumes", "kubernetes.io~secret", podVolumeName);
  }
}

function podUidOf(pod: Frozen<Pod>): string {
  const uid = pod.metadata?.uid ?? "";
  if (!POD_UID.test(uid)) {
    throw new Error(`the launcher pod ${pod.metadata?.name ?? ""} has uid "${uid}", which is not a UUID`);
  }
  return uid;
}

function bytesOf(value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  return Quantity.tryParse(String(value))?.value();
}
