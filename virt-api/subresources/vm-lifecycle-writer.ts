/**
 * Carries out a start/stop/restart plan with optimistic concurrency: the VM (and VMI) are read,
 * the plan computed from what was read, and every write is conditional on the resourceVersion
 * read. Someone else's write in between (the VM controller clearing a request, say) is a
 * conflict: read again, plan again. Nothing is written on a dry run.
 */
import type { Logger } from "pino";
import { isConflict, isNotFound, type ObjectRef, type ResourceClient } from "../../runtime/index.js";
import type { VirtualMachine, VirtualMachineInstance } from "../kinds.js";
import { conflict, internalError, notFound, StatusError, VIRTUAL_MACHINE } from "../status/status-error.js";
import { readVm } from "./read-vm.js";
import type { LifecyclePlan, VmWrite } from "./vm-lifecycle.js";

export interface LifecycleClients {
  readonly vms: ResourceClient<VirtualMachine>;
  readonly vmis: ResourceClient<VirtualMachineInstance>;
}

export type Planner = (vm: VirtualMachine, vmi: VirtualMachineInstance | undefined) => LifecyclePlan;

/** Reads, plans and writes again after a conflict, this many times in all. */
const MAX_ATTEMPTS = 5;

export async function carryOut(
  clients: LifecycleClients,
  ref: Required<ObjectRef>,
  planner: Planner,
  options: { dryRun: boolean; log: Logger },
): Promise<void> {
  // Set once the VMI's grace period was changed: kept for the next attempts, undone on failure.
  let graced: { vmi: VirtualMachineInstance; previous: number | undefined } | undefined;
  try {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const vm = await readVm(clients.vms, ref);
      const vmi = graced?.vmi ?? (await readVmi(clients.vmis, ref));
      const plan = planner(vm, vmi);
      if (plan.vmiGracePeriod !== undefined && vmi && !graced) {
        const changed = await setGracePeriod(clients.vmis, vmi, plan.vmiGracePeriod, options.dryRun);
        if (!changed) continue;
        graced = { vmi, previous: vmi.spec.terminationGracePeriodSeconds };
      }
      if (await writeVm(clients.vms, vm, plan.write, options.dryRun)) {
        options.log.info(
          { namespace: ref.namespace, name: ref.name, write: plan.write, dryRun: options.dryRun },
          "VM changed",
        );
        graced = undefined;
        return;
      }
      options.log.debug(
        { namespace: ref.namespace, name: ref.name, attempt },
        "conflict: reading the VM again",
      );
    }
    throw conflict(
      VIRTUAL_MACHINE,
      ref.name,
      "the object has been modified; please apply your changes to the latest version and try again",
    );
  } finally {
    if (graced && !options.dryRun)
      await restoreGracePeriod(clients.vmis, graced.vmi, graced.previous, options.log);
  }
}

async function readVmi(
  vmis: ResourceClient<VirtualMachineInstance>,
  ref: Required<ObjectRef>,
): Promise<VirtualMachineInstance | undefined> {
  try {
    return await vmis.get(ref);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw internalError(`unable to retrieve vmi [${ref.name}]: ${messageOf(error)}`, error);
  }
}

/** False on a conflict (or a VMI gone meanwhile): plan again from a fresh read. */
async function setGracePeriod(
  vmis: ResourceClient<VirtualMachineInstance>,
  vmi: VirtualMachineInstance,
  seconds: number,
  dryRun: boolean,
): Promise<boolean> {
  try {
    await vmis.mergePatch(
      refOf(vmi),
      {
        metadata: { resourceVersion: vmi.metadata?.resourceVersion },
        spec: { terminationGracePeriodSeconds: seconds },
      },
      { dryRun },
    );
    return true;
  } catch (error) {
    if (isConflict(error) || isNotFound(error)) return false;
    throw internalError(`cannot set the VMI's grace period: ${messageOf(error)}`, error);
  }
}

async function restoreGracePeriod(
  vmis: ResourceClient<VirtualMachineInstance>,
  vmi: VirtualMachineInstance,
  previous: number | undefined,
  log: Logger,
): Promise<void> {
  try {
    await vmis.mergePatch(refOf(vmi), { spec: { terminationGracePeriodSeconds: previous ?? null } });
  } catch (error) {
    if (isNotFound(error)) return;
    log.error(
      { err: error, namespace: vmi.metadata?.namespace, name: vmi.metadata?.name },
      "cannot restore the VMI's grace period",
    );
  }
}

/** False on a conflict. */
async function writeVm(
  vms: ResourceClient<VirtualMachine>,
  vm: VirtualMachine,
  write: VmWrite,
  dryRun: boolean,
): Promise<boolean> {
  const precondition = { resourceVersion: vm.metadata?.resourceVersion };
  try {
    if (write.target === "spec") {
      // A VM that still uses the deprecated `running` keeps it (KubeVirt's getRunningPatch).
      const spec =
        vm.spec.runStrategy === undefined && vm.spec.running !== undefined
          ? { running: write.runStrategy === "Always" }
          : { runStrategy: write.runStrategy };
      await vms.mergePatch(refOf(vm), { metadata: precondition, spec }, { dryRun });
    } else {
      const status = {
        stateChangeRequests: write.stateChangeRequests,
        ...(write.clearStartFailure ? { startFailure: null } : {}),
      };
      await vms.mergePatch(refOf(vm), { metadata: precondition, status }, { dryRun, subresource: "status" });
    }
    return true;
  } catch (error) {
    if (isConflict(error)) return false;
    if (isNotFound(error)) throw notFound(VIRTUAL_MACHINE, vm.metadata?.name ?? "");
    if (error instanceof StatusError) throw error;
    throw internalError(messageOf(error), error);
  }
}

function refOf(object: VirtualMachine | VirtualMachineInstance): Required<ObjectRef> {
  return { namespace: object.metadata?.namespace ?? "", name: object.metadata?.name ?? "" };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
