import {
  POOL_FINALIZER,
  type StoredVirtualMachine,
  type StoredVirtualMachinePool,
  templateLabels,
  vmPoolKind,
} from "../../api/index.js";
import {
  type Clock,
  type EventRecorder,
  type Expectations,
  type Frozen,
  isAlreadyExists,
  isConflict,
  isNotFound,
  jsonEqual,
  type KubeClient,
  type KubeObject,
  labelsMatch,
  mutableCopy,
  objectKey,
  type ReconcileRequest,
  type ReconcileResult,
  type ResourceKind,
  type SharedInformer,
} from "../../runtime/index.js";
import { vmKind } from "../kinds.js";
import { poolStatus, type SyncFailure } from "./pool-status.js";
import {
  freeIndexes,
  indexOfPoolVm,
  POOL_TEMPLATE_HASH_ANNOTATION,
  renderPoolVm,
  templateHash,
  updatedPoolVm,
} from "./pool-vm.js";
import { type Random, scaleInCandidates } from "./scale-in-order.js";

type Pool = Frozen<StoredVirtualMachinePool>;
type Vm = Frozen<StoredVirtualMachine>;

/** The VM informer's index of a VM's controlling owner's uid. */
export const VMS_BY_CONTROLLER_UID = "pool:byControllerUid";

export interface PoolReconcilerDeps {
  pools: SharedInformer<StoredVirtualMachinePool>;
  vms: SharedInformer<StoredVirtualMachine>;
  client: KubeClient;
  events: EventRecorder;
  clock: Clock;
  /** Our VM creates and deletes not yet in the cache (fed by trackChildExpectations). */
  expectations: Expectations;
  /** KubeVirt's default scale-in order is random; tests fix it. */
  random?: Random;
  /** At most this many VM creates or deletes per sync (KubeVirt's burst replicas, 250). */
  burstReplicas?: number;
}

const DEFAULT_BURST_REPLICAS = 250;

/**
 * One reconcile of one VirtualMachinePool, level-based and computed from the caches: its VMs are
 * those it controls (ownerReference uid) whose labels its selector matches. Scale out creates
 * the lowest free `<pool>-<index>` names (a create of a name that exists is AlreadyExists, never a
 * second VM, so a crash at any moment cannot make one too many); scale in deletes in KubeVirt's
 * order; with the count right, VMs made from an older template are brought to the current one.
 * The pool and its VMs carry KubeVirt's finalizer: a deleted VM leaves the pool once seen, a
 * deleted pool releases its VMs, and garbage collection removes them.
 */
export class PoolReconciler {
  readonly #deps: PoolReconcilerDeps;

  constructor(deps: PoolReconcilerDeps) {
    this.#deps = deps;
  }

  async reconcile(request: ReconcileRequest): Promise<ReconcileResult> {
    const pool = this.#deps.pools.get(request.key);
    if (!pool) {
      this.#deps.expectations.delete(request.key);
      return {};
    }
    if (!this.#selectorUsable(pool)) {
      // Admission refuses such a pool; one stored before must not act on the wrong VMs.
      request.log.warn("the pool's selector is invalid or does not match its template's labels: not synced");
      return {};
    }
    const owned = this.#ownedVms(pool);
    const vms = owned.filter((vm) => labelsMatch(pool.spec.selector, vm.metadata?.labels ?? {}));
    if (pool.metadata?.deletionTimestamp) {
      for (const vm of owned) await this.#removeFinalizer(vmKind, vm);
      await this.#removeFinalizer(vmPoolKind, pool);
      return {};
    }
    await this.#addPoolFinalizer(pool);
    for (const vm of owned.filter((each) => !vms.includes(each) && !each.metadata?.deletionTimestamp)) {
      await this.#release(request, vm);
    }
    for (const vm of vms.filter((each) => each.metadata?.deletionTimestamp)) {
      await this.#removeFinalizer(vmKind, vm);
    }
    let failure: SyncFailure | undefined;
    if (this.#deps.expectations.satisfied(request.key) && pool.spec.paused !== true) {
      failure = await this.#sync(request, pool, vms);
    }
    await this.#writeStatus(pool, vms, failure);
    if (failure) throw new Error(`${failure.reason}: ${failure.message}`);
    return {};
  }

  /** An invalid selector matches nothing, so this also refuses one. */
  #selectorUsable(pool: Pool): boolean {
    return labelsMatch(pool.spec.selector, templateLabels(pool.spec));
  }

  #ownedVms(pool: Pool): Vm[] {
    return this.#deps.vms
      .byIndex(VMS_BY_CONTROLLER_UID, pool.metadata?.uid ?? "")
      .filter((vm) => vm.metadata?.namespace === pool.metadata?.namespace);
  }

  /**
   * A VM relabelled out of the selector leaves the pool, as KubeVirt releases it: no pool owner,
   * no pool finalizer (nobody would remove it later); the pool makes a replacement.
   */
  async #release(request: ReconcileRequest, vm: Vm): Promise<void> {
    const ref = { namespace: vm.metadata?.namespace ?? "", name: vm.metadata?.name ?? "" };
    const patch = {
      metadata: {
        resourceVersion: vm.metadata?.resourceVersion,
        ownerReferences: (vm.metadata?.ownerReferences ?? []).filter(
          (owner) => !(owner.controller && owner.kind === "VirtualMachinePool"),
        ),
        finalizers: (vm.metadata?.finalizers ?? []).filter((finalizer) => finalizer !== POOL_FINALIZER),
      },
    };
    try {
      await this.#deps.client.resource(vmKind).mergePatch(ref, patch);
      request.log.info({ vm: ref.name }, "released a VM its selector no longer matches");
    } catch (error) {
      if (!isNotFound(error) && !isConflict(error)) throw error;
    }
  }

  async #sync(request: ReconcileRequest, pool: Pool, vms: Vm[]): Promise<SyncFailure | undefined> {
    const burst = this.#deps.burstReplicas ?? DEFAULT_BURST_REPLICAS;
    const diff = vms.length - (pool.spec.replicas ?? 1);
    if (diff < 0) return this.#scaleOut(request, pool, Math.min(-diff, burst));
    if (diff > 0) return this.#scaleIn(request, pool, vms, Math.min(diff, burst));
    return this.#updateOutdated(request, pool, vms);
  }

  async #scaleOut(request: ReconcileRequest, pool: Pool, count: number): Promise<SyncFailure | undefined> {
    const namespace = pool.metadata?.namespace ?? "";
    const indexes = freeIndexes(pool.metadata?.name ?? "", count, (name) =>
      Boolean(this.#deps.vms.get(`${namespace}/${name}`)),
    );
    this.#deps.expectations.expectCreations(request.key, indexes.length);
    const errors = await Promise.all(
      indexes.map(async (index) => {
        const vm = renderPoolVm(pool, index);
        try {
          await this.#deps.client.resource(vmKind).create(vm);
          this.#deps.events.normal(
            pool,
            "SuccessfulCreate",
            `Created VM ${namespace}/${vm.metadata?.name ?? ""}`,
          );
          return undefined;
        } catch (error) {
          // It will not show up as ours: a VM of that name exists (the next sync picks another
          // index, or sees it as ours once the cache has it), or the create was refused.
          this.#deps.expectations.lower(request.key, 1, 0);
          if (isAlreadyExists(error)) return undefined;
          this.#deps.events.warning(pool, "FailedCreate", `Error creating VM: ${messageOf(error)}`);
          return error;
        }
      }),
    );
    const first = errors.find((error) => error !== undefined);
    return first === undefined
      ? undefined
      : { reason: "FailedScaleOut", message: `error during scale out: ${messageOf(first)}` };
  }

  async #scaleIn(
    request: ReconcileRequest,
    pool: Pool,
    vms: Vm[],
    count: number,
  ): Promise<SyncFailure | undefined> {
    const strategy = pool.spec.scaleInStrategy;
    // Unmanaged: the user scales in; opportunistic: VMs leave only when deleted by other means.
    if (strategy?.unmanaged !== undefined || strategy?.opportunistic !== undefined) return undefined;
    const alreadyDeleting = vms.filter((vm) => vm.metadata?.deletionTimestamp).length;
    const doomed = scaleInCandidates(pool, vms, this.#deps.random ?? Math.random).slice(
      0,
      Math.max(count - alreadyDeleting, 0),
    );
    if (doomed.length === 0) return undefined;
    this.#deps.expectations.expectDeletionsOf(
      request.key,
      doomed.map((vm) => objectKey(vm)),
    );
    const errors = await Promise.all(doomed.map((vm) => this.#deleteVm(request, pool, vm)));
    const first = errors.find((error) => error !== undefined);
    return first === undefined
      ? undefined
      : { reason: "FailedScaleIn", message: `error during scale in: ${messageOf(first)}` };
  }

  async #deleteVm(request: ReconcileRequest, pool: Pool, vm: Vm): Promise<unknown> {
    const ref = { namespace: vm.metadata?.namespace ?? "", name: vm.metadata?.name ?? "" };
    try {
      const deleted = await this.#deps.client
        .resource(vmKind)
        .delete(ref, { preconditions: { uid: vm.metadata?.uid ?? "" } });
      if (deleted) await this.#removeFinalizer(vmKind, deleted);
      this.#deps.events.normal(
        pool,
        "SuccessfulDelete",
        `Deleted VM ${ref.namespace}/${ref.name} with uid ${vm.metadata?.uid ?? ""} from pool`,
      );
      return undefined;
    } catch (error) {
      this.#deps.expectations.deletionObservedOf(request.key, objectKey(vm));
      if (isNotFound(error) || isConflict(error)) return undefined; // gone, or another VM by now
      this.#deps.events.warning(
        pool,
        "FailedDelete",
        `Error deleting virtual machine ${ref.namespace}/${ref.name}: ${messageOf(error)}`,
      );
      return error;
    }
  }

  /** VMs made from an older template get the current one (unless the update strategy is unmanaged). */
  async #updateOutdated(request: ReconcileRequest, pool: Pool, vms: Vm[]): Promise<SyncFailure | undefined> {
    if (pool.spec.updateStrategy?.unmanaged !== undefined) return undefined;
    const hash = templateHash(pool.spec);
    const outdated = vms.filter(
      (vm) =>
        !vm.metadata?.deletionTimestamp &&
        vm.metadata?.annotations?.[POOL_TEMPLATE_HASH_ANNOTATION] !== hash &&
        indexOfPoolVm(vm.metadata?.name ?? "") !== undefined,
    );
    for (const vm of outdated) {
      const name = vm.metadata?.name ?? "";
      try {
        await this.#deps.client.resource(vmKind).update(updatedPoolVm(pool, vm, indexOfPoolVm(name) ?? 0));
        request.log.info({ vm: name }, "updated the pool's VM to its current template");
        this.#deps.events.normal(
          pool,
          "SuccessfulUpdate",
          `Updated VM ${vm.metadata?.namespace ?? ""}/${name}`,
        );
      } catch (error) {
        if (isConflict(error) || isNotFound(error)) continue; // its newer version's event brings it back
        this.#deps.events.warning(
          pool,
          "FailedUpdate",
          `Error updating virtual machine ${name}: ${messageOf(error)}`,
        );
        return { reason: "FailedUpdate", message: `error during VM update: ${messageOf(error)}` };
      }
    }
    return undefined;
  }

  async #addPoolFinalizer(pool: Pool): Promise<void> {
    const finalizers = pool.metadata?.finalizers ?? [];
    if (finalizers.includes(POOL_FINALIZER)) return;
    await this.#patchFinalizers(vmPoolKind, pool, [...finalizers, POOL_FINALIZER]);
  }

  async #removeFinalizer<T extends KubeObject>(kind: ResourceKind<T>, object: Frozen<T>): Promise<void> {
    const finalizers = object.metadata?.finalizers ?? [];
    if (!finalizers.includes(POOL_FINALIZER)) return;
    await this.#patchFinalizers(
      kind,
      object,
      finalizers.filter((finalizer) => finalizer !== POOL_FINALIZER),
    );
  }

  /** A merge patch conditional on the resourceVersion: a stale view is retried from the next event. */
  async #patchFinalizers<T extends KubeObject>(
    kind: ResourceKind<T>,
    object: Frozen<T>,
    finalizers: string[],
  ): Promise<void> {
    const ref = { namespace: object.metadata?.namespace ?? "", name: object.metadata?.name ?? "" };
    const patch = { metadata: { resourceVersion: object.metadata?.resourceVersion, finalizers } };
    try {
      await this.#deps.client.resource(kind).mergePatch(ref, patch);
    } catch (error) {
      if (!isNotFound(error) && !isConflict(error)) throw error;
    }
  }

  async #writeStatus(pool: Pool, vms: Vm[], failure: SyncFailure | undefined): Promise<void> {
    const status = poolStatus(pool, vms, failure, this.#deps.clock.now());
    if (jsonEqual(status, pool.status)) return;
    const updated = mutableCopy<StoredVirtualMachinePool>(pool);
    updated.status = status;
    try {
      await this.#deps.client.resource(vmPoolKind).updateStatus(updated);
    } catch (error) {
      // The pool changed since the cache saw it: its newer version's event brings it back.
      if (isConflict(error) || isNotFound(error)) return;
      throw error;
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
