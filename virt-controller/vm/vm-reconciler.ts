import type { IPersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import {
  type ClusterDefaults,
  claimVolumesOf,
  dataVolumeKind,
  effectiveRunStrategy,
  type ResolvedReferences,
  type StoredDataVolume,
  type VirtualMachineSpec,
  type VirtualMachineStatus,
} from "../../api/index.js";
import {
  CACHE_IS_BEHIND,
  type Clock,
  type EventRecorder,
  type Expectations,
  type Frozen,
  isAlreadyExists,
  isConflict,
  isNotFound,
  jsonEqual,
  type KubeClient,
  mutableCopy,
  type OwnWrites,
  objectKey,
  type ReconcileRequest,
  type ReconcileResult,
  type SharedInformer,
} from "../../runtime/index.js";
import type { ClusterConfig, ClusterConfigSnapshot } from "../config/cluster-config.js";
import { type VirtualMachine, type VirtualMachineInstance, vmiKind, vmKind } from "../kinds.js";
import type { InstancetypeReferences, ReferencesOutcome } from "./instancetype-references.js";
import { decideRunStrategy, type VmDecision } from "./run-strategy.js";
import type { StartBackoffOptions } from "./start-failure.js";
import { dataVolumesState, missingDataVolumes } from "./vm-data-volumes.js";
import { computeVmStatus } from "./vm-status.js";
import { describeCauses, renderVmi, validateForStart } from "./vmi-template.js";
import { VolumeRequestWriter } from "./volume-request-writer.js";

export interface VmReconcilerDeps {
  vms: SharedInformer<VirtualMachine>;
  vmis: SharedInformer<VirtualMachineInstance>;
  client: KubeClient;
  events: EventRecorder;
  config: ClusterConfig;
  clock: Clock;
  /** Crash-loop back-off of failed starts. */
  backoff: StartBackoffOptions;
  /** The VMI creates and deletes not yet in the cache, per VM key (fed by the controller's handlers). */
  expectations: Expectations;
  /** The VM writes not yet in the cache, per VM key. */
  ownWrites: OwnWrites;
  /** Claims, by `namespace/name`. */
  claims: Pick<SharedInformer<IPersistentVolumeClaim>, "get">;
  dataVolumes: Pick<SharedInformer<StoredDataVolume>, "get">;
  /** The VM's instancetype and preference: their revisions, stored on first sight (instancetype-references.ts). */
  instancetypes: InstancetypeReferences;
}

type Failure = { reason: string; message: string };

/** A claim of the VM's disks that exists and is not Bound (KubeVirt's HasUnboundPVC). */
function hasUnboundClaim(
  vm: Frozen<VirtualMachine>,
  claims: Pick<SharedInformer<IPersistentVolumeClaim>, "get">,
): boolean {
  const namespace = vm.metadata?.namespace ?? "";
  return claimVolumesOf(vm.spec?.template?.spec ?? {}).some(({ claimName }) => {
    const claim = claims.get(`${namespace}/${claimName}`);
    return claim !== undefined && claim.status?.phase !== "Bound";
  });
}

/**
 * One reconcile of one VM: its run strategy decides whether its VMI (same name, owned by it)
 * should exist; the VMI is created or deleted, then the VM's status is written once, if it
 * changed. Expectations cover the cache lag after its own creates and deletes. Volume requests
 * (volume-requests.ts) go into the template first (a write of its own), then into the live VMI.
 */
export class VmReconciler {
  readonly #deps: VmReconcilerDeps;
  readonly #volumes: VolumeRequestWriter;

  constructor(deps: VmReconcilerDeps) {
    this.#deps = deps;
    this.#volumes = new VolumeRequestWriter(deps);
  }

  async reconcile(request: ReconcileRequest): Promise<ReconcileResult> {
    const { vms, vmis, expectations, ownWrites, clock } = this.#deps;
    const key = request.key;
    const vm = vms.get(key);
    if (!vm) {
      expectations.delete(key);
      ownWrites.forget(key);
      this.#volumes.forget(key);
      return {};
    }
    if (ownWrites.cacheIsBehind(key, vm.metadata?.resourceVersion)) return CACHE_IS_BEHIND;
    const candidate = vmis.get(key);
    if (this.#volumes.vmiCacheIsBehind(key, candidate)) return CACHE_IS_BEHIND;
    if (await this.#volumes.intoTemplate(request, vm)) return {};
    const vmi = candidate && ownedBy(candidate, vm) ? candidate : undefined;
    const strategy = effectiveRunStrategy(vm.spec as VirtualMachineSpec);
    const config = this.#deps.config.current();
    const nowMs = clock.now();
    let decision: VmDecision = expectations.satisfied(key) ? decideRunStrategy(vm, vmi, strategy, nowMs) : {};
    const references: ReferencesOutcome = vm.metadata?.deletionTimestamp
      ? { kind: "none" }
      : await this.#deps.instancetypes.sync(vm);
    let failure = failureOf(request, vm, candidate, vmi, decision, config, references);
    if (failure) decision = withoutStart(decision);
    await this.#createDataVolumes(request, vm, decision.start !== undefined);
    const dataVolumes = dataVolumesState(vm, this.#deps.dataVolumes);
    if (dataVolumes.kind !== "ready") decision = withoutStart(decision);
    if (dataVolumes.kind === "error")
      this.#deps.events.warning(vm, "FailedDataVolumeImport", dataVolumes.message);
    if (decision.switchToAlways) {
      await this.#switchToAlways(request, vm);
      return {};
    }
    let actionError: unknown;
    try {
      await this.#act(request, vm, vmi, decision, config.defaults, resolvedOf(references));
    } catch (error) {
      actionError = error;
      failure = { reason: decision.start ? "FailedCreate" : "FailedDelete", message: messageOf(error) };
    }
    const hotplugError = vmi && !decision.stop ? await this.#volumes.intoVmi(request, vm, vmi) : undefined;
    const pending = expectations.pending(key);
    const status = computeVmStatus({
      vm,
      vmi,
      strategy,
      failure,
      addStartRequest: decision.addStartRequest === true,
      startExpected: (pending?.adds ?? 0) > 0 && !expectations.satisfied(key),
      stopExpected: (pending?.deletes ?? 0) > 0 && !expectations.satisfied(key),
      nowMs,
      backoff: this.#deps.backoff,
      unboundClaims: hasUnboundClaim(vm, this.#deps.claims),
      dataVolumes: dataVolumes.kind,
    });
    recordReferences(status, references);
    await this.#writeStatus(request, vm, status);
    if (actionError) throw actionError;
    if (hotplugError) throw hotplugError;
    return decision.waitMs ? { requeueAfterMs: decision.waitMs } : {};
  }

  async #createDataVolumes(
    request: ReconcileRequest,
    vm: Frozen<VirtualMachine>,
    starting: boolean,
  ): Promise<void> {
    const { client, events } = this.#deps;
    for (const dataVolume of missingDataVolumes(vm, this.#deps.dataVolumes, starting)) {
      const name = dataVolume.metadata?.name ?? "";
      try {
        await client.resource(dataVolumeKind).create(dataVolume);
      } catch (error) {
        if (isAlreadyExists(error)) continue; // made before, not in the cache yet
        events.warning(
          vm,
          "FailedDataVolumeCreate",
          `Error creating DataVolume ${name}: ${messageOf(error)}`,
        );
        throw error;
      }
      request.log.info({ dataVolume: name }, "created the VM's DataVolume");
      events.normal(vm, "SuccessfulDataVolumeCreate", `Created DataVolume ${name}`);
    }
  }

  async #act(
    request: ReconcileRequest,
    vm: Frozen<VirtualMachine>,
    vmi: Frozen<VirtualMachineInstance> | undefined,
    decision: VmDecision,
    defaults: ClusterDefaults,
    references: ResolvedReferences,
  ): Promise<void> {
    if (decision.start)
      await this.#createVmi(request, vm, renderVmi(vm, defaults, decision.start, references));
    if (decision.stop && vmi) await this.#deleteVmi(request, vm, vmi);
  }

  async #createVmi(
    request: ReconcileRequest,
    vm: Frozen<VirtualMachine>,
    vmi: VirtualMachineInstance,
  ): Promise<void> {
    const { expectations, client, events } = this.#deps;
    expectations.expectCreations(request.key, 1);
    try {
      await client.resource(vmiKind).create(vmi);
    } catch (error) {
      expectations.lower(request.key, 1, 0);
      // Created by us before, not in the cache yet: its event will bring the VM back.
      if (isAlreadyExists(error)) return;
      throw error;
    }
    request.log.info({ vmi: vmi.metadata?.name }, "started the VM: created its VMI");
    events.normal(
      vm,
      "SuccessfulCreate",
      `Started the virtual machine by creating the new virtual machine instance ${vmi.metadata?.name}`,
    );
  }

  async #deleteVmi(
    request: ReconcileRequest,
    vm: Frozen<VirtualMachine>,
    vmi: Frozen<VirtualMachineInstance>,
  ): Promise<void> {
    const { expectations, client, events } = this.#deps;
    const ref = { namespace: vmi.metadata?.namespace ?? "", name: vmi.metadata?.name ?? "" };
    expectations.expectDeletionsOf(request.key, [objectKey(vmi)]);
    try {
      await client.resource(vmiKind).delete(ref, {
        preconditions: { uid: vmi.metadata?.uid ?? "" },
        gracePeriodSeconds: vmi.spec.terminationGracePeriodSeconds ?? 30,
      });
    } catch (error) {
      expectations.deletionObservedOf(request.key, objectKey(vmi));
      if (isNotFound(error) || isConflict(error)) return;
      throw error;
    }
    request.log.info(
      { vmi: ref.name, phase: vmi.status?.phase ?? "Pending" },
      "stopping the VM: deleted its VMI",
    );
    events.normal(
      vm,
      "SuccessfulDelete",
      `Stopped the virtual machine by deleting the virtual machine instance ${vmi.metadata?.uid ?? ""}`,
    );
  }

  /** Halted with a Start request: start it the way `virtctl start` does, by changing the spec. */
  async #switchToAlways(request: ReconcileRequest, vm: Frozen<VirtualMachine>): Promise<void> {
    const spec = vm.spec.runStrategy !== undefined ? { runStrategy: "Always" } : { running: true };
    const patched = await this.#deps.client
      .resource(vmKind)
      .mergePatch(
        { namespace: vm.metadata?.namespace ?? "", name: vm.metadata?.name ?? "" },
        { metadata: { resourceVersion: vm.metadata?.resourceVersion }, spec },
      );
    this.#deps.ownWrites.wrote(request.key, vm.metadata?.resourceVersion, patched.metadata?.resourceVersion);
  }

  async #writeStatus(
    request: ReconcileRequest,
    vm: Frozen<VirtualMachine>,
    status: VirtualMachine["status"],
  ): Promise<void> {
    if (jsonEqual(status, vm.status)) return;
    const updated = mutableCopy<VirtualMachine>(vm);
    updated.status = status;
    let stored: VirtualMachine;
    try {
      stored = await this.#deps.client.resource(vmKind).updateStatus(updated);
    } catch (error) {
      // The VM changed since the cache saw it: its newer version's event brings the key back.
      if (isConflict(error)) return;
      throw error;
    }
    this.#deps.ownWrites.wrote(request.key, vm.metadata?.resourceVersion, stored.metadata?.resourceVersion);
  }
}

/** Why the VM may not start now (a foreign VMI in the way, an unsupported strategy, an invalid spec). */
function failureOf(
  request: ReconcileRequest,
  vm: Frozen<VirtualMachine>,
  candidate: Frozen<VirtualMachineInstance> | undefined,
  vmi: Frozen<VirtualMachineInstance> | undefined,
  decision: VmDecision,
  config: ClusterConfigSnapshot,
  references: ReferencesOutcome,
): Failure | undefined {
  if (candidate && !vmi) {
    return {
      reason: "FailedCreate",
      message: `a VirtualMachineInstance named ${request.name} exists that this VirtualMachine does not control`,
    };
  }
  if (decision.unsupported) return { reason: "UnsupportedRunStrategy", message: decision.unsupported };
  if (references.kind === "failed") return { reason: references.reason, message: references.message };
  const causes = validateForStart(vm, config.defaults, config.featureGates, resolvedOf(references));
  return causes.length > 0 ? { reason: "InvalidSpec", message: describeCauses(causes) } : undefined;
}

function resolvedOf(references: ReferencesOutcome): ResolvedReferences {
  return references.kind === "synced" ? references.resolved : {};
}

/**
 * `status.instancetypeRef` / `preferenceRef` as the references were synced; a VM that references
 * nothing has none, and a reference that could not be followed keeps what it had.
 */
function recordReferences(status: VirtualMachineStatus, references: ReferencesOutcome): void {
  if (references.kind === "failed") return;
  const refs =
    references.kind === "synced" ? references : { instancetypeRef: undefined, preferenceRef: undefined };
  if (refs.instancetypeRef !== undefined) status.instancetypeRef = refs.instancetypeRef;
  else delete status.instancetypeRef;
  if (refs.preferenceRef !== undefined) status.preferenceRef = refs.preferenceRef;
  else delete status.preferenceRef;
}

/** An invalid or foreign VM creates nothing; stopping and waiting still apply. */
function withoutStart(decision: VmDecision): VmDecision {
  const { start: _dropped, ...rest } = decision;
  return rest;
}

function ownedBy(vmi: Frozen<VirtualMachineInstance>, vm: Frozen<VirtualMachine>): boolean {
  return (vmi.metadata?.ownerReferences ?? []).some(
    (owner) => owner.controller === true && owner.kind === "VirtualMachine" && owner.uid === vm.metadata?.uid,
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
