import {
  ANNOTATIONS,
  API_VERSION,
  guestHostname,
  LABELS,
  LAUNCHER_NETWORK,
  launcherJoinsPodNetwork,
  type VirtualMachineInstanceSpec,
  VMI_ID_LABEL,
  vmiIdOf,
} from "../../api/index.js";
import type { Frozen } from "../../runtime/index.js";
import type { Pod, VirtualMachineInstance } from "../kinds.js";
import { claimPodVolumes } from "./launcher-pod-claims.js";
import { pullSecretVolumes } from "./launcher-pod-pull-secrets.js";
import { cloudInitSecretVolumes } from "./launcher-pod-secrets.js";
import { launcherProbes } from "./launcher-probes.js";
import { type LauncherResourceOptions, launcherResources } from "./launcher-resources.js";

/** The launcher pod's labels and names (KubeVirt's). */
/** The node label the kubelet sets to its architecture (Kubernetes' `kubernetes.io/arch`). */
const NODE_ARCH_LABEL = "kubernetes.io/arch";

export const LAUNCHER = {
  appLabelValue: "virt-launcher",
  vmNameLabel: "vm.kubevirt.io/name",
  container: "compute",
  /** Seconds the pod gets beyond the VMI's own grace period (KubeVirt's kill-after margin). */
  extraGraceSeconds: 15,
} as const;

export interface LauncherPodOptions extends LauncherResourceOptions {
  image: string;
  /** The Secrets the VMI's images are pulled with (vmiPullSecretNames), in order. */
  pullSecrets?: readonly string[];
}

/**
 * The virt-launcher pod of a VMI (KubeVirt's RenderLaunchManifest, reduced to what kubevirt-ts
 * needs): it anchors the VM in Kubernetes. The scheduler places it by its requests (the VM's
 * memory and CPU plus overhead, /dev/kvm unless emulated) and selectors (schedulable KubeVirt
 * nodes of the VMI's architecture, plus the VMI's own), and it lives as long as the VM. Its volumes carry the Secrets the
 * VMI's cloud-init references (launcher-pod-secrets.ts). `spec` is the VMI's with defaults.
 */
export function renderLauncherPod(
  vmi: Frozen<VirtualMachineInstance>,
  spec: VirtualMachineInstanceSpec,
  options: LauncherPodOptions,
): Pod {
  const name = vmi.metadata?.name ?? "";
  const secrets = cloudInitSecretVolumes(spec);
  const served = launcherJoinsPodNetwork(spec);
  const network = launcherNetwork();
  const claims = claimPodVolumes(spec);
  const mounts = [...(served ? network.volumeMounts : []), ...secrets.volumeMounts, ...claims.volumeMounts];
  const pullSecrets = pullSecretVolumes(options.pullSecrets ?? []);
  const volumes = [
    ...(served ? network.volumes : []),
    ...secrets.volumes,
    ...pullSecrets.volumes,
    ...claims.volumes,
  ];
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      generateName: `virt-launcher-${name}-`,
      namespace: vmi.metadata?.namespace ?? "",
      labels: {
        ...withoutNodeLabel(vmi.metadata?.labels),
        [LABELS.app]: LAUNCHER.appLabelValue,
        [LABELS.createdBy]: vmi.metadata?.uid ?? "",
        // KubeVirt's value: the guest's hostname, which fits a label (the name may have 253 characters).
        [LAUNCHER.vmNameLabel]: guestHostname(name, spec.hostname),
        // What `virtctl expose vm|vmi` selects: this VMI's pod, whatever labels the VMI has.
        [VMI_ID_LABEL]: vmiIdOf(name),
      },
      annotations: { [ANNOTATIONS.domain]: name },
      ownerReferences: [
        {
          apiVersion: API_VERSION,
          kind: "VirtualMachineInstance",
          name,
          uid: vmi.metadata?.uid ?? "",
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      containers: [
        {
          name: LAUNCHER.container,
          image: options.image,
          resources: launcherResources(spec, options),
          // Every launcher names its pod: virt-handler finds its processes, and through them the
          // pod's network namespace and the cgroups its QEMU joins.
          env: network.env,
          ...(launcherJoinsPodNetwork(spec) ? { securityContext: LAUNCHER_NETWORK_CAPABILITIES } : {}),
          ...launcherProbes(spec),
          ...(mounts.length > 0 ? { volumeMounts: mounts } : {}),
        },
      ],
      ...(volumes.length > 0 ? { volumes } : {}),
      ...(pullSecrets.imagePullSecrets.length > 0 ? { imagePullSecrets: pullSecrets.imagePullSecrets } : {}),
      nodeSelector: launcherNodeSelector(spec),
      ...schedulingOf(spec),
      ...namingOf(name, spec),
      terminationGracePeriodSeconds: (spec.terminationGracePeriodSeconds ?? 30) + LAUNCHER.extraGraceSeconds,
      restartPolicy: "Never",
      // The launcher only waits: it never talks to the API server.
      automountServiceAccountToken: false,
    },
  };
}

function schedulingOf(spec: VirtualMachineInstanceSpec): Partial<NonNullable<Pod["spec"]>> {
  const scheduling: Partial<NonNullable<Pod["spec"]>> = {};
  if (spec.affinity) scheduling.affinity = spec.affinity as NonNullable<Pod["spec"]>["affinity"];
  if (spec.tolerations) scheduling.tolerations = spec.tolerations as NonNullable<Pod["spec"]>["tolerations"];
  if (spec.schedulerName) scheduling.schedulerName = spec.schedulerName;
  if (spec.priorityClassName) scheduling.priorityClassName = spec.priorityClassName;
  if (spec.topologySpreadConstraints) {
    scheduling.topologySpreadConstraints = spec.topologySpreadConstraints as NonNullable<
      Pod["spec"]
    >["topologySpreadConstraints"];
  }
  return scheduling;
}

type PodDnsPolicy = NonNullable<NonNullable<Pod["spec"]>["dnsPolicy"]>;
const POD_DNS_POLICIES: readonly PodDnsPolicy[] = [
  "ClusterFirstWithHostNet",
  "ClusterFirst",
  "Default",
  "None",
];

/**
 * The pod's DNS: the VMI's policy and config, since the guest is offered its pod's resolvers
 * (virt-handler reads the pod's resolv.conf); with a subdomain, the pod's hostname under it, so a
 * headless Service of that name gives the VM a DNS name (`<hostname>.<subdomain>.<namespace>.svc`).
 */
function namingOf(name: string, spec: VirtualMachineInstanceSpec): Partial<NonNullable<Pod["spec"]>> {
  const naming: Partial<NonNullable<Pod["spec"]>> = {};
  // Admission refuses another policy; one stored before is left to the pod's default.
  const policy = POD_DNS_POLICIES.find((known) => known === spec.dnsPolicy);
  if (policy !== undefined) naming.dnsPolicy = policy;
  if (spec.dnsConfig) naming.dnsConfig = spec.dnsConfig as NonNullable<Pod["spec"]>["dnsConfig"];
  if (spec.subdomain) {
    naming.subdomain = spec.subdomain;
    naming.hostname = guestHostname(name, spec.hostname);
  }
  return naming;
}

/** The VMI's labels go onto the pod (Services select VMs through them), but not its node. */
function withoutNodeLabel(labels: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const copy = { ...(labels ?? {}) };
  delete copy[LABELS.nodeName];
  return copy;
}

/**
 * The guest's DHCP server (udhcpd, run by the launcher as user 65532) binds port 67 and reads its
 * interface through a raw socket: the image gives its binary those file capabilities, and they
 * take effect only inside the container's capability set, which may not hold them by default.
 */
const LAUNCHER_NETWORK_CAPABILITIES = { capabilities: { add: ["NET_BIND_SERVICE", "NET_RAW"] } };

/**
 * What a launcher that serves its guest on the pod network gets: its pod's uid, by which
 * virt-handler finds the pod's network namespace on the node, and the volume in which virt-handler
 * leaves the guest's DHCP answer once the pod's side is set up.
 */
function launcherNetwork() {
  return {
    env: [{ name: LAUNCHER_NETWORK.podUidEnv, valueFrom: { fieldRef: { fieldPath: "metadata.uid" } } }],
    volumeMounts: [{ name: LAUNCHER_NETWORK.volume, mountPath: LAUNCHER_NETWORK.mountPath }],
    volumes: [{ name: LAUNCHER_NETWORK.volume, emptyDir: {} }],
  };
}

/**
 * The VMI's own selector, a node virt-handler runs on, and (as KubeVirt's template service does)
 * the VMI's architecture: an arm64 guest waits for an arm64 node rather than run as amd64.
 */
function launcherNodeSelector(spec: VirtualMachineInstanceSpec): Record<string, string> {
  return {
    [LABELS.nodeSchedulable]: "true",
    ...(spec.nodeSelector ?? {}),
    ...(spec.architecture ? { [NODE_ARCH_LABEL]: spec.architecture } : {}),
  };
}
