/**
 * Which VMs a pool deletes first when it scales in, as KubeVirt's pool controller picks them: the
 * VMs not already being deleted, ordered by the proactive strategy's sortPolicy (KubeVirt's
 * default, with no scaleInStrategy, is Random), then narrowed to those its selectors match (the
 * template labels and the template's nodeSelector).
 */
import type { PoolSortPolicy, StoredVirtualMachine, StoredVirtualMachinePool } from "../../api/index.js";
import {
  type Frozen,
  labelsMatch,
  nodeSelectorRequirementMatches,
  parseWireTime,
} from "../../runtime/index.js";
import { indexOfPoolVm } from "./pool-vm.js";

type Vm = Frozen<StoredVirtualMachine>;

/** Shuffles in place; the reconciler passes Math.random, tests a fixed sequence. */
export type Random = () => number;

export function scaleInCandidates(
  pool: Frozen<StoredVirtualMachinePool>,
  vms: readonly Vm[],
  random: Random,
): Vm[] {
  const proactive = pool.spec.scaleInStrategy?.proactive;
  const policy: PoolSortPolicy = proactive?.selectionPolicy?.sortPolicy ?? "Random";
  const ordered = sortVms(
    vms.filter((vm) => !vm.metadata?.deletionTimestamp),
    policy,
    random,
  );
  const selectors = proactive?.selectionPolicy?.selectors;
  return ordered.filter((vm) => {
    const template = vm.spec.template;
    const labels = template.metadata?.labels ?? {};
    if (selectors?.labelSelector && !labelsMatch(selectors.labelSelector, labels)) return false;
    const nodeSelector = template.spec?.nodeSelector ?? {};
    return (selectors?.nodeSelectorRequirementMatcher ?? []).every((requirement) =>
      nodeSelectorRequirementMatches(requirement, nodeSelector),
    );
  });
}

function sortVms(vms: Vm[], policy: PoolSortPolicy, random: Random): Vm[] {
  const byIndex = (vm: Vm) => indexOfPoolVm(vm.metadata?.name ?? "") ?? 0;
  const created = (vm: Vm) => parseWireTime(vm.metadata?.creationTimestamp ?? "") ?? 0;
  switch (policy) {
    case "AscendingOrder":
      return vms.sort((a, b) => byIndex(a) - byIndex(b));
    case "DescendingOrder":
      return vms.sort((a, b) => byIndex(b) - byIndex(a));
    case "Newest":
      return vms.sort((a, b) => created(b) - created(a));
    case "Oldest":
      return vms.sort((a, b) => created(a) - created(b));
    case "Random":
      return shuffle(vms, random);
  }
}

function shuffle(vms: Vm[], random: Random): Vm[] {
  for (let at = vms.length - 1; at > 0; at -= 1) {
    const other = Math.floor(random() * (at + 1));
    [vms[at], vms[other]] = [vms[other] as Vm, vms[at] as Vm];
  }
  return vms;
}
