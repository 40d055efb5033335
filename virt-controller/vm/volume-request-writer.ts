import {
  type EventRecorder,
  type Frozen,
  isConflict,
  isNotFound,
  type KubeClient,
  mutableCopy,
  OwnWrites,
  type ReconcileRequest,
} from "../../runtime/index.js";
import { type VirtualMachine, type VirtualMachineInstance, vmiKind, vmKind } from "../kinds.js";
import { isFinal } from "../vmi-phase.js";
import { applyVolumeRequests, volumeRequestsOf } from "./volume-requests.js";

export interface VolumeRequestWriterDeps {
  readonly client: KubeClient;
  readonly events: EventRecorder;
  /** The VM writes not yet in the cache, per VM key (shared with the rest of the VM reconcile). */
  readonly ownWrites: OwnWrites;
}

const EMPTY_SPEC = { domain: { devices: {} } } as const;

/**
 * The VM controller's writes for `status.volumeRequests` (volume-requests.ts decides): first the
 * template, in a write of its own whose event brings the VM back; then, from a later reconcile,
 * the live VMI. Every write carries the resourceVersion it was computed from; a conflict waits for
 * the newer version's event. Clearing the requests is the status's business (vm-status.ts).
 */
export class VolumeRequestWriter {
  readonly #deps: VolumeRequestWriterDeps;
  /** The VMI writes not yet in the cache, per VMI key (the VM's). */
  readonly #vmiWrites = new OwnWrites();

  constructor(deps: VolumeRequestWriterDeps) {
    this.#deps = deps;
  }

  /** True while the cache still shows the VMI our last write replaced. */
  vmiCacheIsBehind(key: string, vmi: Frozen<VirtualMachineInstance> | undefined): boolean {
    return vmi !== undefined && this.#vmiWrites.cacheIsBehind(key, vmi.metadata?.resourceVersion);
  }

  forget(key: string): void {
    this.#vmiWrites.forget(key);
  }

  /** Writes the template when it does not reflect the requests yet; true when it did (the reconcile ends there). */
  async intoTemplate(request: ReconcileRequest, vm: Frozen<VirtualMachine>): Promise<boolean> {
    if (vm.metadata?.deletionTimestamp) return false;
    const change = applyVolumeRequests(vm.spec.template.spec ?? EMPTY_SPEC, volumeRequestsOf(vm));
    if (!change) return false;
    let patched: VirtualMachine;
    try {
      patched = await this.#deps.client.resource(vmKind).mergePatch(refOf(vm), {
        metadata: { resourceVersion: vm.metadata?.resourceVersion },
        spec: {
          template: { spec: { volumes: change.volumes, domain: { devices: { disks: change.disks } } } },
        },
      });
    } catch (error) {
      if (isConflict(error)) return true; // the newer version's event brings the key back
      this.#deps.events.warning(
        vm,
        "FailedHotplug",
        `Error updating the template's volumes: ${messageOf(error)}`,
      );
      throw error;
    }
    request.log.info(
      { volumes: change.volumes.map((volume) => volume.name) },
      "applied volume requests to the template",
    );
    this.#deps.ownWrites.wrote(request.key, vm.metadata?.resourceVersion, patched.metadata?.resourceVersion);
    return true;
  }

  /**
   * Gives a live VMI the requested volumes and disks (virt-controller may change a VMI's spec;
   * users may not). Returns the error of a failed write, for the reconcile to throw after its
   * status write.
   */
  async intoVmi(
    request: ReconcileRequest,
    vm: Frozen<VirtualMachine>,
    vmi: Frozen<VirtualMachineInstance>,
  ): Promise<unknown> {
    if (vmi.metadata?.deletionTimestamp || isFinal(vmi)) return undefined;
    const change = applyVolumeRequests(vmi.spec, volumeRequestsOf(vm));
    if (!change) return undefined;
    // An update of the cached VMI, as the VMI controller writes VMIs (no patch of VMIs in its RBAC).
    const updated = mutableCopy<VirtualMachineInstance>(vmi);
    updated.spec.volumes = change.volumes;
    updated.spec.domain.devices.disks = change.disks;
    let stored: VirtualMachineInstance;
    try {
      stored = await this.#deps.client.resource(vmiKind).update(updated);
    } catch (error) {
      // The VMI changed (its event brings the VM back) or is gone.
      if (isConflict(error) || isNotFound(error)) return undefined;
      this.#deps.events.warning(vm, "FailedHotplug", `Error updating the VMI's volumes: ${messageOf(error)}`);
      return error;
    }
    request.log.info(
      { volumes: change.volumes.map((volume) => volume.name) },
      "applied volume requests to the VMI",
    );
    this.#vmiWrites.wrote(request.key, vmi.metadata?.resourceVersion, stored.metadata?.resourceVersion);
    return undefined;
  }
}

function refOf(object: Frozen<{ metadata?: { namespace?: string; name?: string } }>): {
  namespace: string;
  name: string;
} {
  return { namespace: object.metadata?.namespace ?? "", name: object.metadata?.name ?? "" };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
