import type { Logger } from "pino";
import type { EventRecorder, Frozen } from "../../runtime/index.js";
import type { KubeVirt } from "../kinds.js";
import { describeObject, type LiveObject, type ManagedObjects } from "./managed-objects.js";
import { isCrd } from "./strategy-entries.js";
import type { WorkloadInventory, Workloads } from "./workload-inventory.js";

/** Where an uninstall stands after one pass. */
export type UninstallStep =
  | { step: "blocked"; message: string }
  | { step: "removing"; message: string }
  | { step: "done" };

export type UninstallStrategy = "RemoveWorkloads" | "BlockUninstallIfWorkloadsExist";

/**
 * One pass of an uninstall, level-based: from what exists now, take the next step. Workloads
 * first (blocked, or deleted with RemoveWorkloads, and waited for while the still-installed
 * components remove their finalizers); then every installed object, the API registrations and
 * workloads first and CRDs last, each stage waited for; done when none is left.
 */
export class Uninstaller {
  readonly #objects: ManagedObjects;
  readonly #workloads: WorkloadInventory;
  readonly #events: EventRecorder;

  constructor(objects: ManagedObjects, workloads: WorkloadInventory, events: EventRecorder) {
    this.#objects = objects;
    this.#workloads = workloads;
    this.#events = events;
  }

  async step(kubevirt: Frozen<KubeVirt>, log: Logger, signal: AbortSignal): Promise<UninstallStep> {
    const strategy: UninstallStrategy = kubevirt.spec?.uninstallStrategy ?? "BlockUninstallIfWorkloadsExist";
    const workloads = await this.#workloads.list(signal);
    if (workloads.vms.length + workloads.vmis.length > 0) {
      if (strategy === "BlockUninstallIfWorkloadsExist") {
        const message = `cannot uninstall: ${countOf(workloads)} exist; delete them or set spec.uninstallStrategy to RemoveWorkloads`;
        return { step: "blocked", message };
      }
      const asked = await this.#workloads.deleteAll(workloads, signal);
      if (asked > 0) {
        log.info({ deleted: asked }, "uninstall: deleting every VirtualMachine and VirtualMachineInstance");
        this.#events.normal(
          kubevirt,
          "DeletingWorkloads",
          `Deleting ${countOf(workloads)} (uninstallStrategy RemoveWorkloads)`,
        );
      }
      return { step: "removing", message: `waiting for ${countOf(workloads)} to be deleted` };
    }
    return this.#removeInstalled(kubevirt, log, signal);
  }

  async #removeInstalled(
    kubevirt: Frozen<KubeVirt>,
    log: Logger,
    signal: AbortSignal,
  ): Promise<UninstallStep> {
    const installed = this.#objects.installed();
    const components = installed.filter((live) => !isCrd(live));
    // CRDs go last, once nothing that serves or uses their kinds is left.
    const stage = components.length > 0 ? components : installed;
    if (stage.length === 0) return { step: "done" };
    for (const live of [...stage].sort(highestStageFirst)) {
      if (live.object.metadata?.deletionTimestamp) continue;
      if (!(await this.#objects.delete(live, signal))) continue;
      log.info({ object: describeObject(live) }, "uninstall: deleted");
      this.#events.normal(kubevirt, "SuccessfulDelete", `Deleted ${describeObject(live)}`);
    }
    const left = stage.map(describeObject);
    return {
      step: "removing",
      message: `waiting for ${left.length} objects to be deleted: ${left.join(", ")}`,
    };
  }
}

/** API registrations, then workloads, then configuration, then identities (managed-kinds.ts). */
function highestStageFirst(left: LiveObject, right: LiveObject): number {
  return right.kind.stage - left.kind.stage;
}

function countOf(workloads: Workloads): string {
  return `${workloads.vms.length} VirtualMachines and ${workloads.vmis.length} VirtualMachineInstances`;
}
