/**
 * Where a port-forward goes: the VMI's (or the VM's VMI's) first interface address, as KubeVirt
 * dials it, with KubeVirt's refusals (VM not started 409, paused 409, no interfaces 400).
 *
 * One check more than KubeVirt: VMI status is writable by whoever may update the VMI (no status
 * subresource, SECURITY.md), so the address alone would let a namespace editor point virt-api at
 * any address it can reach. The address must also be a pod IP of a Running launcher pod of this
 * VMI, in the VMI's namespace, not on the host's network: what the guest's own pod would answer
 * at, and nothing a namespace user could not reach through that pod anyway.
 */
import { isIP } from "node:net";
import { LABELS } from "../../api/index.js";
import { isNotFound, type ResourceClient } from "../../runtime/index.js";
import type { Pod, VirtualMachine, VirtualMachineInstance } from "../kinds.js";
import {
  badRequest,
  conflict,
  internalError,
  notFound,
  VIRTUAL_MACHINE,
  VIRTUAL_MACHINE_INSTANCE,
} from "../status/status-error.js";
import { readVmi } from "../subresources/read-vmi.js";
import type { RequestTarget } from "../subresources/request-target.js";

export interface ForwardAddressSources {
  readonly vms: ResourceClient<VirtualMachine>;
  readonly vmis: ResourceClient<VirtualMachineInstance>;
  readonly pods: ResourceClient<Pod>;
}

/** The guest's address for the target's port-forward; a StatusError when it has none. */
export async function forwardAddressOf(
  sources: ForwardAddressSources,
  target: RequestTarget,
): Promise<string> {
  const ref = { namespace: target.namespace, name: target.name };
  if (target.resource === "virtualmachines") await requireVmStarted(sources.vms, ref);
  const vmi = await readVmi(sources.vmis, ref);
  return checkedAddress(vmi, await launcherPodsOf(sources.pods, vmi));
}

async function requireVmStarted(
  vms: ResourceClient<VirtualMachine>,
  ref: { namespace: string; name: string },
): Promise<void> {
  let vm: VirtualMachine;
  try {
    vm = await vms.get(ref);
  } catch (error) {
    if (isNotFound(error)) throw notFound(VIRTUAL_MACHINE, ref.name);
    throw internalError(`unable to retrieve vm [${ref.name}]: ${messageOf(error)}`, error);
  }
  if (!vm.status?.created) throw conflict(VIRTUAL_MACHINE, ref.name, "VMI is not started");
}

async function launcherPodsOf(pods: ResourceClient<Pod>, vmi: VirtualMachineInstance): Promise<Pod[]> {
  const uid = vmi.metadata?.uid;
  if (!uid) return [];
  try {
    const list = await pods.list({
      namespace: vmi.metadata?.namespace ?? "",
      labelSelector: `${LABELS.createdBy}=${uid}`,
    });
    return list.items;
  } catch (error) {
    throw internalError(`cannot list the launcher pods of the VMI: ${messageOf(error)}`, error);
  }
}

/** The VMI's first interface address, once it is one of its running launcher pod's IPs. */
export function checkedAddress(vmi: VirtualMachineInstance, launcherPods: readonly Pod[]): string {
  const name = vmi.metadata?.name ?? "";
  const paused = (vmi.status?.conditions ?? []).some(
    (condition) => condition.type === "Paused" && condition.status !== "False",
  );
  if (paused) throw conflict(VIRTUAL_MACHINE_INSTANCE, name, "VMI is paused");
  if (vmi.status?.phase !== "Running") throw badRequest("VMI is not running");
  const interfaces = vmi.status?.interfaces ?? [];
  if (interfaces.length < 1) throw badRequest("no network interfaces are present");
  const address = interfaces[0]?.ipAddress ?? "";
  if (isIP(address) === 0) {
    throw badRequest(`the VMI's first network interface has no IP address yet (${JSON.stringify(address)})`);
  }
  const launcherIps = launcherPods
    .filter(
      (pod) =>
        pod.status?.phase === "Running" &&
        !pod.metadata?.deletionTimestamp &&
        pod.spec?.hostNetwork !== true &&
        pod.metadata?.namespace === vmi.metadata?.namespace,
    )
    .flatMap((pod) => [pod.status?.podIP, ...(pod.status?.podIPs ?? []).map((entry) => entry.ip)]);
  if (!launcherIps.includes(address)) {
    throw badRequest(
      `the VMI's address ${address} is not an IP of its running virt-launcher pod: port-forward goes only to the VM's own pod`,
    );
  }
  return address;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
