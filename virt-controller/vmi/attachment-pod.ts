// A hotplugged volume's attachment pod (KubeVirt's hp-volume pod, RenderHotplugAttachmentPodTemplate):
// it makes the claim's volume present on the VM's node while the VM runs, without touching the
// launcher pod. The scheduler places it (so a WaitForFirstConsumer claim binds on that node), pinned
// to the VMI's node by a required node affinity rather than spec.nodeName, which would bypass both
// the scheduler and volume binding. The kubelet mounts the claim for it, and virt-handler opens the
// disk from that mount (virt-handler's attachmentPodsWith finds the pod by its label, its owner and
// a pod volume named after the VMI volume). Unlike KubeVirt, one pod per volume: unplugging one disk
// deletes one pod and never disturbs the others.
import { join } from "node:path/posix";
import { API_VERSION, CLAIM_VOLUMES_DIR, type ClaimVolume, LABELS } from "../../api/index.js";
import type { Frozen } from "../../runtime/index.js";
import type { Pod, VirtualMachineInstance } from "../kinds.js";

export const ATTACHMENT_POD = {
  generateName: "hp-volume-",
  /** KubeVirt's value of the `kubevirt.io` label on attachment pods (virt-handler selects by it). */
  appLabelValue: "hotplug-disk",
  /** Which VMI volume the pod holds: how virt-controller tells its attachment pods apart. */
  volumeLabel: "kubevirt.io/hotplug-volume",
  container: "hotplug-disk",
  /**
   * What the container runs: nothing but waiting, for as long as the pod lives. The launcher
   * image's busybox has `sleep` on its PATH (images/virt-launcher.Dockerfile); the dev cluster runs
   * it as a host process.
   */
  command: ["sleep", "infinity"],
  /** KubeVirt's requests and limits of the hotplug container. */
  resources: { requests: { cpu: "10m", memory: "2M" }, limits: { cpu: "100m", memory: "80M" } },
  /** Where the container mounts the claim; its path matters to nobody, the kubelet's mount does. */
  mountDir: CLAIM_VOLUMES_DIR,
} as const;

/** The node label the pod is pinned by (kube's well-known hostname label, as KubeVirt pins it). */
const HOSTNAME_LABEL = "kubernetes.io/hostname";

export interface AttachmentPodOptions {
  /** The launcher image (`--launcher-image`). */
  readonly image: string;
  /** The VMI's node (`status.nodeName`). */
  readonly node: string;
}

export function isAttachmentPod(pod: Frozen<Pod> | Pod): boolean {
  return pod.metadata?.labels?.[LABELS.app] === ATTACHMENT_POD.appLabelValue;
}

/** The VMI volume an attachment pod holds (by its label), or undefined for another pod. */
export function attachedVolumeOf(pod: Frozen<Pod> | Pod): string | undefined {
  return isAttachmentPod(pod) ? pod.metadata?.labels?.[ATTACHMENT_POD.volumeLabel] : undefined;
}

/** The claim an attachment pod mounts as `volumeName` (undefined if it mounts none so). */
export function attachedClaimOf(pod: Frozen<Pod> | Pod, volumeName: string): string | undefined {
  return pod.spec?.volumes?.find((volume) => volume.name === volumeName)?.persistentVolumeClaim?.claimName;
}

export function renderAttachmentPod(
  vmi: Frozen<VirtualMachineInstance>,
  volume: ClaimVolume,
  options: AttachmentPodOptions,
): Pod {
  const readOnly = volume.readOnly ? { readOnly: true } : {};
  const tolerations = vmi.spec.tolerations as NonNullable<Pod["spec"]>["tolerations"] | undefined;
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      generateName: ATTACHMENT_POD.generateName,
      namespace: vmi.metadata?.namespace ?? "",
      // Not the VMI's labels: Services select VMs by them, and this pod serves nothing.
      labels: {
        [LABELS.app]: ATTACHMENT_POD.appLabelValue,
        [ATTACHMENT_POD.volumeLabel]: volume.volumeName,
      },
      ownerReferences: [
        {
          apiVersion: API_VERSION,
          kind: "VirtualMachineInstance",
          name: vmi.metadata?.name ?? "",
          uid: vmi.metadata?.uid ?? "",
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      containers: [
        {
          name: ATTACHMENT_POD.container,
          image: options.image,
          command: [...ATTACHMENT_POD.command],
          resources: {
            requests: { ...ATTACHMENT_POD.resources.requests },
            limits: { ...ATTACHMENT_POD.resources.limits },
          },
          securityContext: {
            allowPrivilegeEscalation: false,
            runAsNonRoot: true,
            capabilities: { drop: ["ALL"] },
            seccompProfile: { type: "RuntimeDefault" },
          },
          volumeMounts: [
            {
              name: volume.volumeName,
              mountPath: join(ATTACHMENT_POD.mountDir, volume.volumeName),
              ...readOnly,
            },
          ],
        },
      ],
      volumes: [
        { name: volume.volumeName, persistentVolumeClaim: { claimName: volume.claimName, ...readOnly } },
      ],
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: HOSTNAME_LABEL, operator: "In", values: [options.node] }] },
            ],
          },
        },
      },
      // The VM's node may be tainted in ways the VM tolerates: so must the pod that follows it there.
      ...(tolerations ? { tolerations: structuredClone(tolerations) } : {}),
      // Nothing in it to stop gracefully (KubeVirt: 0).
      terminationGracePeriodSeconds: 0,
      automountServiceAccountToken: false,
    },
  };
}
