import {
  type Frozen,
  isConflict,
  isNotFound,
  type KubeObject,
  type Manager,
  type ResourceKind,
  type SharedInformer,
} from "../../runtime/index.js";
import { type VirtualMachine, type VirtualMachineInstance, vmiKind, vmKind } from "../kinds.js";

/** The VMs and VMIs of the whole cluster, as far as an uninstall cares. */
export interface Workloads {
  vms: readonly Frozen<VirtualMachine>[];
  vmis: readonly Frozen<VirtualMachineInstance>[];
}

interface WorkloadInformers {
  vms: SharedInformer<VirtualMachine>;
  vmis: SharedInformer<VirtualMachineInstance>;
}

/**
 * The cluster's VirtualMachines and VirtualMachineInstances, which decide whether an uninstall
 * may proceed. Their informers start on first use, not with the operator: before the first
 * install their CRDs do not exist, and an informer that cannot list would keep the operator
 * unready. Until they have synced, a live list answers (no CRD: no workloads).
 */
export class WorkloadInventory {
  readonly #manager: Manager;
  readonly #onChange: () => void;
  #informers: WorkloadInformers | undefined;

  constructor(manager: Manager, onChange: () => void) {
    this.#manager = manager;
    this.#onChange = onChange;
  }

  async list(signal: AbortSignal): Promise<Workloads> {
    const informers = this.#watch();
    const [vms, vmis] = await Promise.all([
      this.#listOf(vmKind, informers.vms, signal),
      this.#listOf(vmiKind, informers.vmis, signal),
    ]);
    return { vms, vmis };
  }

  /** Deletes every VM, then every VMI, not already being deleted; returns how many it asked to go. */
  async deleteAll(workloads: Workloads, signal: AbortSignal): Promise<number> {
    let asked = 0;
    for (const vm of workloads.vms) if (await this.#delete(vmKind, vm, signal)) asked++;
    for (const vmi of workloads.vmis) if (await this.#delete(vmiKind, vmi, signal)) asked++;
    return asked;
  }

  #watch(): WorkloadInformers {
    if (this.#informers) return this.#informers;
    const handler = { onAdd: this.#onChange, onUpdate: this.#onChange, onDelete: this.#onChange };
    const vms = this.#manager.informer(vmKind);
    const vmis = this.#manager.informer(vmiKind);
    vms.addEventHandler(handler);
    vmis.addEventHandler(handler);
    this.#informers = { vms, vmis };
    return this.#informers;
  }

  async #listOf<T extends KubeObject>(
    kind: ResourceKind<T>,
    informer: SharedInformer<T>,
    signal: AbortSignal,
  ): Promise<Frozen<T>[]> {
    if (informer.hasSynced()) return informer.list();
    try {
      return (await this.#manager.client.resource(kind).list({ signal })).items as Frozen<T>[];
    } catch (error) {
      if (isNotFound(error)) return [];
      throw new Error(`cannot list ${kind.plural} to decide the uninstall`, { cause: error });
    }
  }

  async #delete<T extends KubeObject>(
    kind: ResourceKind<T>,
    object: Frozen<T>,
    signal: AbortSignal,
  ): Promise<boolean> {
    const { name, namespace, uid, deletionTimestamp } = object.metadata ?? {};
    if (!name || deletionTimestamp) return false;
    try {
      await this.#manager.client
        .resource(kind)
        .delete(
          { name, ...(namespace ? { namespace } : {}) },
          { ...(uid ? { preconditions: { uid } } : {}), signal },
        );
      return true;
    } catch (error) {
      if (isNotFound(error) || isConflict(error)) return false;
      throw new Error(`cannot delete ${kind.kind} ${namespace}/${name}`, { cause: error });
    }
  }
}
