/** VMs and VMIs for virt-api's tests, written straight to the API server (no controller runs). */
import type { RunStrategy } from "../../api/index.js";
import type { KubeClient } from "../../runtime/index.js";
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
