import type { Logger } from "pino";
import { type ClusterDefaults, effectiveRunStrategy, type VirtualMachineSpec } from "../../api/index.js";
import {
  type Clock,
  type Controller,
  controllerOwnerKey,
  Expectations,
  type Frozen,
  isAlreadyExists,
  isConflict,
  isNotFound,
  jsonEqual,
  type Manager,
  mutableCopy,
  OwnWrites,
  objectKey,
  ownKey,
  type ReconcileRequest,
  type ReconcileResult,
  systemClock,
} from "../../runtime/index.js";
import type { ClusterConfig, ClusterConfigSnapshot } from "../config/cluster-config.js";
import { type VirtualMachine, type VirtualMachineInstance, vmiKind, vmKind } from "../kinds.js";
import { decideRunStrategy, type VmDecision } from "./run-strategy.js";
import { KUBEVIRT_START_BACKOFF, type StartBackoffOptions } from "./start-failure.js";
import { computeVmStatus } from "./vm-status.js";
import { describeCauses, renderVmi, validateForStart } from "./vmi-template.js";

export interface VmControllerOptions {
  config: ClusterConfig;
  workers?: number;
  /** Crash-loop back-off (default KubeVirt's: 10 s × failures², at most 5 min). */
  startBackoff?: StartBackoffOptions;
  clock?: Clock;
}

type Failure = { reason: string; message: string };

/**
 * The VM controller: a VM's run strategy decides whether its VMI (same name, owned by it)
 * should exist; the controller creates or deletes it, then writes the VM's status once, if it
 * changed. Expectations cover the cache lag after its own creates and deletes.
 */
export function addVmController(manager: Manager, options: VmControllerOptions): Controller {
  const vms = manager.informer(vmKind);
  const vmis = manager.informer(vmiKind);
  const clock = options.clock ?? systemClock;
  const expectations = new Expectations({ clock });
  const ownWrites = new OwnWrites();
  const backoff = options.startBackoff ?? KUBEVIRT_START_BACKOFF;
  const ownerOf = controllerOwnerKey<VirtualMachineInstance>(vmKind);
  const controller = manager.controller({
    name: "vm",
    workers: options.workers ?? 3,
    reconcile: async (request) => {
      const vm = vms.get(request.key);
      if (!vm) {
        expectations.delete(request.key);
        ownWrites.forget(request.key);
        return;
      }
      if (ownWrites.cacheIsBehind(request.key, vm.metadata?.resourceVersion)) return;
      const candidate = vmis.get(request.key);
      const reconciler = new VmReconcile(manager, request, {
        expectations,
        ownWrites,
        clock,
        backoff,
        options,
      });
      return reconciler.run(vm, candidate);
    },
  });
  controller.watch(vms);
  controller.watch(vmis, ownerOf);
  controller.dependsOn(options.config);
  // A changed KubeVirt CR (defaults, useEmulation) can change every decision: look at all again.
  options.config.onChange(() => {
    for (const object of vms.list()) for (const key of ownKey(object)) controller.enqueue(key);
  });
  vmis.addEventHandler({
    onAdd: (vmi) => {
      for (const key of ownerOf(vmi)) expectations.creationObserved(key);
    },
    onUpdate: (previous, current) => {
      if (previous.metadata?.deletionTimestamp || !current.metadata?.deletionTimestamp) return;
      for (const key of ownerOf(current)) expectations.deletionObservedOf(key, objectKey(current));
    },
    onDelete: (vmi) => {
      for (const key of ownerOf(vmi)) expectations.deletionObservedOf(key, objectKey(vmi));
    },
  });
  return controller;
}

interface VmReconcileDeps {
  expectations: Expectations;
  ownWrites: OwnWrites;
  clock: Clock;
  backoff: StartBackoffOptions;
  options: VmControllerOptions;
}

/** One reconcile of one VM: decide, act on the VMI, write the status. */
class VmReconcile {
  readonly #manager: Manager;
  readonly #request: ReconcileRequest;
  readonly #deps: VmReconcileDeps;
  readonly #log: Logger;

  constructor(manager: Manager, request: ReconcileRequest, deps: VmReconcileDeps) {
    this.#manager = manager;
    this.#request = request;
    this.#deps = deps;
    this.#log = request.log;
  }

  async run(
    vm: Frozen<VirtualMachine>,
    candidate: Frozen<VirtualMachineInstance> | undefined,
  ): Promise<ReconcileResult | undefined> {
    const { expectations, clock } = this.#deps;
    const key = this.#request.key;
    const vmi = candidate && ownedBy(candidate, vm) ? candidate : undefined;
    const strategy = effectiveRunStrategy(vm.spec as VirtualMachineSpec);
    const config = this.#deps.options.config.current();
    const nowMs = clock.now();
    let decision: VmDecision = expectations.satisfied(key) ? decideRunStrategy(vm, vmi, strategy, nowMs) : {};
    let failure = this.#failureOf(vm, candidate, vmi, decision, config);
    if (failure) decision = withoutStart(decision);
    if (decision.switchToAlways) return this.#switchToAlways(vm);
    let actionError: unknown;
    try {
      await this.#act(vm, vmi, decision, config.defaults);
    } catch (error) {
      actionError = error;
      failure = { reason: decision.start ? "FailedCreate" : "FailedDelete", message: messageOf(error) };
    }
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
    });
    await this.#writeStatus(vm, status);
    if (actionError) throw actionError;
    return decision.waitMs ? { requeueAfterMs: decision.waitMs } : undefined;
  }

  #failureOf(
    vm: Frozen<VirtualMachine>,
    candidate: Frozen<VirtualMachineInstance> | undefined,
    vmi: Frozen<VirtualMachineInstance> | undefined,
    decision: VmDecision,
    config: ClusterConfigSnapshot,
  ): Failure | undefined {
    if (candidate && !vmi) {
      return {
        reason: "FailedCreate",
        message: `a VirtualMachineInstance named ${this.#request.name} exists that this VirtualMachine does not control`,
      };
    }
    if (decision.unsupported) return { reason: "UnsupportedRunStrategy", message: decision.unsupported };
    const causes = validateForStart(vm, config.defaults, config.featureGates);
    return causes.length > 0 ? { reason: "InvalidSpec", message: describeCauses(causes) } : undefined;
  }

  async #act(
    vm: Frozen<VirtualMachine>,
    vmi: Frozen<VirtualMachineInstance> | undefined,
    decision: VmDecision,
    defaults: ClusterDefaults,
  ): Promise<void> {
    if (decision.start) await this.#createVmi(vm, renderVmi(vm, defaults, decision.start));
    if (decision.stop && vmi) await this.#deleteVmi(vm, vmi);
  }

  async #createVmi(vm: Frozen<VirtualMachine>, vmi: VirtualMachineInstance): Promise<void> {
    const { expectations } = this.#deps;
    const key = this.#request.key;
    expectations.expectCreations(key, 1);
    try {
      await this.#manager.client.resource(vmiKind).create(vmi);
    } catch (error) {
      expectations.lower(key, 1, 0);
      // Created by us before, not in the cache yet: its event will bring the VM back.
      if (isAlreadyExists(error)) return;
      throw error;
    }
    this.#log.info({ vmi: vmi.metadata?.name }, "started the VM: created its VMI");
    this.#manager.events.normal(
      vm,
      "SuccessfulCreate",
      `Started the virtual machine by creating the new virtual machine instance ${vmi.metadata?.name}`,
    );
  }

  async #deleteVmi(vm: Frozen<VirtualMachine>, vmi: Frozen<VirtualMachineInstance>): Promise<void> {
    const { expectations } = this.#deps;
    const key = this.#request.key;
    const ref = { namespace: vmi.metadata?.namespace ?? "", name: vmi.metadata?.name ?? "" };
    expectations.expectDeletionsOf(key, [objectKey(vmi)]);
    try {
      await this.#manager.client.resource(vmiKind).delete(ref, {
        preconditions: { uid: vmi.metadata?.uid ?? "" },
        gracePeriodSeconds: vmi.spec.terminationGracePeriodSeconds ?? 30,
      });
    } catch (error) {
      expectations.deletionObservedOf(key, objectKey(vmi));
      if (isNotFound(error) || isConflict(error)) return;
      throw error;
    }
    this.#log.info(
      { vmi: ref.name, phase: vmi.status?.phase ?? "Pending" },
      "stopping the VM: deleted its VMI",
    );
    this.#manager.events.normal(
      vm,
      "SuccessfulDelete",
      `Stopped the virtual machine by deleting the virtual machine instance ${vmi.metadata?.uid ?? ""}`,
    );
  }

  /** Halted with a Start request: start it the way `virtctl start` does, by changing the spec. */
  async #switchToAlways(vm: Frozen<VirtualMachine>): Promise<undefined> {
    const spec = vm.spec.runStrategy !== undefined ? { runStrategy: "Always" } : { running: true };
    const patched = await this.#manager.client
      .resource(vmKind)
      .mergePatch(
        { namespace: vm.metadata?.namespace ?? "", name: vm.metadata?.name ?? "" },
        { metadata: { resourceVersion: vm.metadata?.resourceVersion }, spec },
      );
    this.#deps.ownWrites.wrote(
      this.#request.key,
      vm.metadata?.resourceVersion,
      patched.metadata?.resourceVersion,
    );
    return undefined;
  }

  async #writeStatus(vm: Frozen<VirtualMachine>, status: VirtualMachine["status"]): Promise<void> {
    if (jsonEqual(status, vm.status)) return;
    const updated = mutableCopy<VirtualMachine>(vm);
    updated.status = status;
    let stored: VirtualMachine;
    try {
      stored = await this.#manager.client.resource(vmKind).updateStatus(updated);
    } catch (error) {
      // The VM changed since the cache saw it: its newer version's event brings the key back.
      if (isConflict(error)) return;
      throw error;
    }
    this.#deps.ownWrites.wrote(
      this.#request.key,
      vm.metadata?.resourceVersion,
      stored.metadata?.resourceVersion,
    );
  }
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
