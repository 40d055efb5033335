/** Manifests and virt-handler stand-ins for virt-controller's tests. */
import type { RunStrategy } from "../../api/index.js";
import {
  type KubeClient,
  mutableCopy,
  persistentVolumeClaimKind,
  persistentVolumeKind,
  wireTime,
  wireTimeMillis,
} from "../../runtime/index.js";
import { eventually } from "../../test/harness/api-server-fixture.js";
import {
  type Pod,
  podKind,
  type VirtualMachine,
  type VirtualMachineInstance,
  vmiKind,
  vmKind,
} from "../kinds.js";

export const NAMESPACE = "default";

type VmiSpec = VirtualMachineInstance["spec"];

/** A small VMI spec in the shape of KubeVirt's examples: one containerDisk, 128Mi. */
export function smallVmiSpec(extra: Partial<VmiSpec> = {}): VmiSpec {
  return {
    domain: {
      devices: { disks: [{ name: "containerdisk", disk: { bus: "virtio" } }] },
      resources: { requests: { memory: "128Mi" } },
    },
    terminationGracePeriodSeconds: 0,
    volumes: [{ name: "containerdisk", containerDisk: { image: "localhost/test-guest:latest" } }],
    ...extra,
  };
}

export function vmManifest(
  name: string,
  run: { runStrategy: RunStrategy } | { running: boolean },
  spec: VmiSpec = smallVmiSpec(),
): VirtualMachine {
  return {
    apiVersion: "kubevirt.io/v1",
    kind: "VirtualMachine",
    metadata: { name, namespace: NAMESPACE },
    spec: { ...run, template: { metadata: { labels: { app: name } }, spec } },
  };
}

export function vmiManifest(name: string, spec: VmiSpec = smallVmiSpec()): VirtualMachineInstance {
  return {
    apiVersion: "kubevirt.io/v1",
    kind: "VirtualMachineInstance",
    metadata: { name, namespace: NAMESPACE },
    spec,
  };
}

export function getVm(client: KubeClient, name: string): Promise<VirtualMachine> {
  return client.resource(vmKind).get({ namespace: NAMESPACE, name });
}

export async function findVmi(client: KubeClient, name: string): Promise<VirtualMachineInstance | undefined> {
  try {
    return await client.resource(vmiKind).get({ namespace: NAMESPACE, name });
  } catch {
    return undefined;
  }
}

/** The launcher pods of a VMI (by its uid). */
export async function launcherPods(client: KubeClient, vmiUid: string): Promise<Pod[]> {
  const list = await client
    .resource(podKind)
    .list({ namespace: NAMESPACE, labelSelector: `kubevirt.io/created-by=${vmiUid}` });
  return list.items;
}

/** The hotplug attachment pods of a VMI (by its uid). */
export async function attachmentPods(client: KubeClient, vmiUid: string): Promise<Pod[]> {
  const list = await client
    .resource(podKind)
    .list({ namespace: NAMESPACE, labelSelector: "kubevirt.io=hotplug-disk" });
  return list.items.filter((pod) => pod.metadata?.ownerReferences?.some((owner) => owner.uid === vmiUid));
}

/**
 * A ReadWriteOnce claim bound to a PersistentVolume of its own, as the dev cluster's binder leaves
 * them (the test cluster runs none): the scheduler places pods on it, the test kubelet runs them.
 */
export async function boundClaim(client: KubeClient, name: string): Promise<void> {
  const capacity = { storage: "1Gi" };
  const claim = await client.resource(persistentVolumeClaimKind).create({
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    // bind-completed: how the PV controller marks a finished binding (the scheduler checks it).
    metadata: { name, namespace: NAMESPACE, annotations: { "pv.kubernetes.io/bind-completed": "yes" } },
    spec: {
      accessModes: ["ReadWriteOnce"],
      resources: { requests: capacity },
      storageClassName: "",
      volumeName: `pv-${name}`,
    },
  });
  await client.resource(persistentVolumeKind).create({
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name: `pv-${name}` },
    spec: {
      capacity,
      accessModes: ["ReadWriteOnce"],
      hostPath: { path: `/tmp/kubevirt-ts-test/${name}` },
      storageClassName: "",
      claimRef: { namespace: NAMESPACE, name, uid: claim.metadata?.uid ?? "" },
    },
  });
  await client
    .resource(persistentVolumeClaimKind)
    .mergePatch(
      { namespace: NAMESPACE, name },
      { status: { phase: "Bound", accessModes: ["ReadWriteOnce"], capacity } },
      { subresource: "status" },
    );
}

/** Polls until the VM's status satisfies `check`; returns that VM. */
export function vmWhere(
  client: KubeClient,
  name: string,
  what: string,
  check: (vm: VirtualMachine) => boolean,
  timeoutMs = 15_000,
): Promise<VirtualMachine> {
  return eventually(
    `VM ${name}: ${what}`,
    async () => {
      const vm = await getVm(client, name);
      return check(vm) ? vm : undefined;
    },
    timeoutMs,
  );
}

/** Polls until the VMI exists and satisfies `check`; returns it. */
export function vmiWhere(
  client: KubeClient,
  name: string,
  what: string,
  check: (vmi: VirtualMachineInstance) => boolean,
  timeoutMs = 15_000,
): Promise<VirtualMachineInstance> {
  return eventually(
    `VMI ${name}: ${what}`,
    async () => {
      const vmi = await findVmi(client, name);
      return vmi && check(vmi) ? vmi : undefined;
    },
    timeoutMs,
  );
}

export function vmiGone(client: KubeClient, name: string, uid?: string): Promise<true> {
  return eventually(`VMI ${name} gone`, async () => {
    const vmi = await findVmi(client, name);
    return !vmi || (uid !== undefined && vmi.metadata?.uid !== uid) ? true : undefined;
  });
}

/** virt-handler's part, played by the test: the VM runs (phase Running, Ready). One write. */
export async function handlerReportsRunning(
  client: KubeClient,
  name: string,
): Promise<VirtualMachineInstance> {
  return handlerWrites(client, name, (vmi) => {
    const status = vmi.status ?? {};
    status.phase = "Running";
    status.phaseTransitionTimestamps = [
      ...(status.phaseTransitionTimestamps ?? []),
      { phase: "Running", phaseTransitionTimestamp: wireTimeMillis(Date.now()) },
    ];
    status.conditions = [
      ...(status.conditions ?? []).filter((condition) => condition.type !== "Ready"),
      {
        type: "Ready",
        status: "True",
        lastProbeTime: null,
        lastTransitionTime: wireTime(Date.now()),
      },
    ];
    vmi.status = status;
  });
}

/** virt-handler's part: the guest powered off (Succeeded) or crashed (Failed). */
export function handlerReportsFinished(
  client: KubeClient,
  name: string,
  phase: "Succeeded" | "Failed",
): Promise<VirtualMachineInstance> {
  return handlerWrites(client, name, (vmi) => {
    const status = vmi.status ?? {};
    status.phase = phase;
    status.phaseTransitionTimestamps = [
      ...(status.phaseTransitionTimestamps ?? []),
      { phase, phaseTransitionTimestamp: wireTimeMillis(Date.now()) },
    ];
    status.conditions = (status.conditions ?? []).filter((condition) => condition.type !== "Ready");
    vmi.status = status;
  });
}

/** virt-handler's part: the domain is gone, the finalizer goes. */
export function handlerReleases(client: KubeClient, name: string): Promise<VirtualMachineInstance> {
  return handlerWrites(client, name, (vmi) => {
    if (vmi.metadata)
      vmi.metadata.finalizers = (vmi.metadata.finalizers ?? []).filter(
        (f) => f !== "kubevirt.io/virtualMachineControllerFinalize",
      );
  });
}

/** A write of the VMI (retried on conflict): virt-handler's volumeStatus, or a spec change as virt-controller makes it. */
export function changeVmi(
  client: KubeClient,
  name: string,
  change: (vmi: VirtualMachineInstance) => void,
): Promise<VirtualMachineInstance> {
  return handlerWrites(client, name, change);
}

async function handlerWrites(
  client: KubeClient,
  name: string,
  change: (vmi: VirtualMachineInstance) => void,
): Promise<VirtualMachineInstance> {
  return eventually(`virt-handler's write of VMI ${name}`, async () => {
    const vmi = mutableCopy<VirtualMachineInstance>(
      await client.resource(vmiKind).get({ namespace: NAMESPACE, name }),
    );
    change(vmi);
    return client.resource(vmiKind).update(vmi);
  });
}
