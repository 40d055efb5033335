/** VMs and VMIs for virt-api's tests, written straight to the API server (no controller runs). */
import type { RunStrategy } from "../../api/index.js";
import { LABELS } from "../../api/index.js";
import { type KubeClient, podKind } from "../../runtime/index.js";
import { type VirtualMachine, type VirtualMachineInstance, vmiKind, vmKind } from "../kinds.js";
import { NODE_NAME } from "./virt-api-fixture.js";

export const TEST_NAMESPACE = "default";

const templateSpec = () => ({
  domain: {
    devices: { disks: [{ name: "rootdisk", disk: { bus: "virtio" } }] },
    resources: { requests: { memory: "64Mi" } },
  },
  terminationGracePeriodSeconds: 30,
  volumes: [{ name: "rootdisk", containerDisk: { image: "localhost/cirros:latest" } }],
});

/** A VM with `runStrategy`, or with the deprecated `running` when a boolean is given. */
export function vmManifest(name: string, strategy: RunStrategy | boolean): VirtualMachine {
  return {
    metadata: { name, namespace: TEST_NAMESPACE },
    spec: {
      ...(typeof strategy === "boolean" ? { running: strategy } : { runStrategy: strategy }),
      template: { metadata: { labels: { "kubevirt.io/vm": name } }, spec: templateSpec() },
    },
  } as VirtualMachine;
}

export async function createVm(
  client: KubeClient,
  name: string,
  strategy: RunStrategy | boolean,
): Promise<VirtualMachine> {
  return client.resource(vmKind).create(vmManifest(name, strategy));
}

/** A VMI named like its VM, in `phase` on node-a, with optional conditions. */
export async function createVmi(
  client: KubeClient,
  name: string,
  phase: string,
  extra: { conditions?: { type: string; status: string }[]; spec?: Record<string, unknown> } = {},
): Promise<VirtualMachineInstance> {
  const vmis = client.resource(vmiKind);
  const created = await vmis.create({
    metadata: { name, namespace: TEST_NAMESPACE },
    spec: { ...templateSpec(), ...extra.spec },
  } as VirtualMachineInstance);
  return vmis.mergePatch(
    { namespace: TEST_NAMESPACE, name },
    {
      metadata: { resourceVersion: created.metadata?.resourceVersion },
      status: { phase, nodeName: NODE_NAME, ...(extra.conditions ? { conditions: extra.conditions } : {}) },
    },
    // VMIs have no status subresource (KubeVirt's CRD): the status is written with the object.
  );
}

export function subresourcePath(
  resource: "virtualmachines" | "virtualmachineinstances",
  name: string,
  subresource: string,
): string {
  return `/apis/subresources.kubevirt.io/v1/namespaces/${TEST_NAMESPACE}/${resource}/${name}/${subresource}`;
}

/**
 * Gives the VMI a guest address (127.0.0.1 unless told, or no interface for null) and a Running
 * launcher pod at `podIp` (the same address unless told): what port-forward dials.
 */
export async function placeGuest(
  client: KubeClient,
  name: string,
  options: { vmiIp?: string | null; podIp?: string } = {},
): Promise<void> {
  const vmis = client.resource(vmiKind);
  const vmi = await vmis.get({ namespace: TEST_NAMESPACE, name });
  const vmiIp = options.vmiIp === undefined ? "127.0.0.1" : options.vmiIp;
  await vmis.mergePatch(
    { namespace: TEST_NAMESPACE, name },
    {
      status: {
        interfaces: vmiIp === null ? [] : [{ name: "default", ipAddress: vmiIp, ipAddresses: [vmiIp] }],
      },
    },
  );
  const pods = client.resource(podKind);
  const podName = `virt-launcher-${name}-abcde`;
  await pods.create({
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: podName,
      namespace: TEST_NAMESPACE,
      labels: { "kubevirt.io": "virt-launcher", [LABELS.createdBy]: vmi.metadata?.uid ?? "" },
    },
    spec: { containers: [{ name: "compute", image: "virt-launcher" }] },
  });
  const podIp = options.podIp ?? "127.0.0.1";
  await pods.mergePatch(
    { namespace: TEST_NAMESPACE, name: podName },
    { status: { phase: "Running", podIP: podIp, podIPs: [{ ip: podIp }] } },
    { subresource: "status" },
  );
}
