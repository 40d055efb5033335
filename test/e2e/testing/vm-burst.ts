// A burst of VM creations, as KubeVirt's density test makes one: VMs created on a fixed schedule
// (not one after the other's answer), on a node whose CPU the KubeVirt CR stretches to fit them.
import { setTimeout as sleep } from "node:timers/promises";
import type { KubeClient } from "../../../runtime/index.js";
import { kubevirtKind, type VirtualMachine, vmKind } from "./kinds.js";
import { pollUntil } from "./poll.js";
import type { VmBurstRecorder } from "./vm-burst-recorder.js";

/**
 * Sets `developerConfiguration.cpuAllocationRatio` in the stack's KubeVirt CR, as a user makes many
 * small VMs fit a node: each launcher pod then asks for vCPUs ÷ ratio of a CPU.
 */
export async function setCpuAllocationRatio(client: KubeClient, ratio: number): Promise<void> {
  await client
    .resource(kubevirtKind)
    .mergePatch(
      { namespace: "kubevirt", name: "kubevirt" },
      { spec: { configuration: { developerConfiguration: { cpuAllocationRatio: ratio } } } },
    );
}

/** Creates the VMs `intervalMs` apart; returns when each request left (epoch ms, by name). */
export async function createVmBurst(
  client: KubeClient,
  vms: readonly VirtualMachine[],
  intervalMs: number,
): Promise<Map<string, number>> {
  const sentAt = new Map<string, number>();
  const start = Date.now();
  const requests: Promise<unknown>[] = [];
  for (const [index, vm] of vms.entries()) {
    const wait = start + index * intervalMs - Date.now();
    if (wait > 0) await sleep(wait);
    sentAt.set(vm.metadata?.name ?? "", Date.now());
    requests.push(client.resource(vmKind).create(vm));
  }
  await Promise.all(requests);
  return sentAt;
}

/**
 * Waits until `count` VMIs were seen Running; fails at once with the reason when the recorder
 * learns that the burst cannot complete (a launcher pod that fits no node, a watch that ended).
 */
export async function waitForBurst(
  recorder: VmBurstRecorder,
  count: number,
  timeoutMs: number,
): Promise<void> {
  await pollUntil(
    `${count} VMIs Running`,
    () => {
      if (recorder.failure) throw recorder.failure;
      return recorder.runningCount() >= count ? true : undefined;
    },
    { timeoutMs, intervalMs: 100, lastSeen: () => `${recorder.runningCount()} Running` },
  );
}
