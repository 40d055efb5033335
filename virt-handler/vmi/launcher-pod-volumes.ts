// Where a VMI's launcher pod keeps its volumes on this node: the kubelet's
// `<pods dir>/<pod uid>/volumes/kubernetes.io~secret/<volume name>`. virt-handler reads the Secrets
// a VMI references from there (storage/cloud-init-secrets.ts): the kubelet fetched them with the
// node's credentials, for a pod of the VMI's own namespace, so no RBAC on Secrets is needed.
// Every part of the path is ours or checked: the pods directory (a flag), the pod's uid (a UUID),
// the volume name (a DNS label the pod's spec declares as a secret volume of that Secret).
import { join } from "node:path";
import type { Frozen, SharedInformer } from "../../runtime/index.js";
import { VmiConversionError } from "../converter/conversion-error.js";
import type { Pod, Vmi } from "../kinds.js";
import type { LauncherPodVolumes } from "../storage/index.js";
import { CREATED_BY_INDEX, launcherPodFor } from "./launcher-pod.js";

/** The kubelet's pods directory on a node (KubeVirt's virt-handler mounts it from the host). */
export const DEFAULT_KUBELET_PODS_DIR = "/var/lib/kubelet/pods";

const POD_UID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export interface KubeletPodVolumesOptions {
  /** The kubelet's pods directory as this process sees it (--kubelet-pods-dir). */
  readonly podsDir: string;
  /** Pods of this node, indexed by CREATED_BY_INDEX (the pod informer's cache). */
  readonly pods: Pick<SharedInformer<Pod>, "byIndex">;
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
    };
  }

  #imagePullSecretNames(vmi: Frozen<Vmi>): string[] {
    const candidates = this.#options.pods.byIndex(CREATED_BY_INDEX, vmi.metadata?.uid ?? "");
    const pod = launcherPodFor(vmi, candidates);
    return (pod?.spec?.imagePullSecrets ?? []).map((ref) => ref.name ?? "").filter((name) => name !== "");
  }

  #secretVolumeDir(vmi: Frozen<Vmi>, podVolumeName: string, secretName: string): string {
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
    const podName = pod.metadata?.name ?? "";
    const declared = pod.spec?.volumes?.find((volume) => volume.name === podVolumeName);
    if (declared?.secret?.secretName !== secretName) {
      throw new VmiConversionError(
        "UnsupportedVolume",
        `the launcher pod ${podName} has no volume ${podVolumeName} of secret "${secretName}" (it was created without it): recreate the VMI`,
      );
    }
    const uid = pod.metadata?.uid ?? "";
    if (!POD_UID.test(uid))
      throw new Error(`the launcher pod ${podName} has uid "${uid}", which is not a UUID`);
    return join(this.#options.podsDir, uid, "volumes", "kubernetes.io~secret", podVolumeName);
  }
}
