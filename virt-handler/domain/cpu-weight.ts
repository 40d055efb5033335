// A VM's CPU weight on the node. QEMU runs under the node's libvirt, not in its launcher pod's
// cgroup, so the weight the kubelet would give that pod (cpu.shares from its CPU request) is given
// to the domain instead: VMs share the CPU by what they asked for, as pods do.
//
// While a domain starts, it weighs more than every running guest: QEMU's own start (its devices,
// libvirt's monitor commands) then waits for no guest, where at its running weight a start among
// twenty booting TCG guests took seconds. Once it runs, it is lowered to its weight.

import type { Frozen } from "../../runtime/index.js";
import { Quantity } from "../../runtime/index.js";
import type { Pod } from "../kinds.js";

/** cpu.shares while a domain starts: ten CPUs' worth, above any 1–8 vCPU guest's running weight. */
export const STARTING_CPU_SHARES = 10_240;
/** cgroup v1's range of cpu.shares. */
const MIN_SHARES = 2;
const MAX_SHARES = 262_144;
/** The kubelet's weight of a pod without a CPU request (cpu.shares 2). */
const SHARES_PER_CPU = 1024;

/** The kubelet's cpu.shares for a CPU request (MilliCPUToShares): 1024 a CPU, at least 2. */
export function cpuSharesOf(request: string | number | undefined): number {
  return sharesOfMillicores(millicoresOf(request));
}

/** The weight of the VM whose launcher pod is `pod`: the sum of its containers' CPU requests. */
export function launcherCpuShares(pod: Frozen<Pod> | undefined): number | undefined {
  if (pod === undefined) return undefined;
  const containers = pod.spec?.containers ?? [];
  return sharesOfMillicores(containers.reduce((sum, c) => sum + millicoresOf(c.resources?.requests?.cpu), 0));
}

function millicoresOf(request: string | number | undefined): number {
  return request === undefined ? 0 : (Quantity.tryParse(request)?.milliValue() ?? 0);
}

function sharesOfMillicores(millicores: number): number {
  const shares = Math.floor((millicores * SHARES_PER_CPU) / 1000);
  return Math.min(MAX_SHARES, Math.max(MIN_SHARES, shares));
}
