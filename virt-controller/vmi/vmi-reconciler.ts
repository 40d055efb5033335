import {
  defaultVirtualMachineInstanceSpec,
  type VirtualMachineInstanceSpec,
  validateVirtualMachineInstance,
  vmiPullSecretNames,
} from "../../api/index.js";
import {
  CACHE_IS_BEHIND,
  type Clock,
  type EventRecorder,
  type Expectations,
  type Frozen,
  isConflict,
  isNotFound,
  jsonEqual,
  type KubeClient,
  mutableCopy,
  type OwnWrites,
  type ReconcileRequest,
  type ReconcileResult,
  type SharedInformer,
} from "../../runtime/index.js";
import type { ClusterConfig } from "../config/cluster-config.js";
import { type Pod, podKind, type VirtualMachineInstance, vmiKind } from "../kinds.js";
import { describeCauses } from "../vm/vmi-template.js";
import { isFinal, phaseOf } from "../vmi-phase.js";
import { AttachmentPods } from "./attachment-pods.js";
import { type ClaimCheckDeps, type ClaimReservations, checkAndReserveClaims } from "./claim-check.js";
import { renderLauncherPod } from "./launcher-pod.js";
import { launcherPodOf } from "./launcher-pod-state.js";
import type { LauncherResourceOptions } from "./launcher-resources.js";
import { PodCreateError } from "./pod-create-failure.js";
import { serviceAccountPullSecrets } from "./service-account-pull-secrets.js";
import { nextVmiState, type SyncFailure } from "./vmi-lifecycle.js";

/** The index of the launcher pod informer that finds a VMI's pods by the VMI's uid. */
export const LAUNCHER_PODS_BY_VMI_UID = "vmiUid";

export interface VmiReconcilerDeps {
  vmis: SharedInformer<VirtualMachineInstance>;
  /** Launcher and attachment pods, indexed by LAUNCHER_PODS_BY_VMI_UID, PODS_BY_OWNER_UID and BY_CLAIM. */
  pods: SharedInformer<Pod>;
  client: KubeClient;
  events: EventRecorder;
  config: ClusterConfig;
  /** The launcher pod's image (`--launcher-image`). */
  launcherImage: string;
  clock: Clock;
  /** The pod creates not yet in the cache, per VMI key (fed by the controller's handlers). */
  expectations: Expectations;
  /** The VMI writes not yet in the cache, per VMI key. */
  ownWrites: OwnWrites;
  /** Claims (by `namespace/name`); launcher pods are indexed by the claims they mount too. */
  claims: ClaimCheckDeps["claims"];
  /** The ReadWriteOnce claims given to VMIs whose pods the cache may not show yet. */
  claimReservations: ClaimReservations;
  dataVolumes: ClaimCheckDeps["dataVolumes"];
}

/**
 * One reconcile of one VMI: a Pending VMI gets exactly one launcher pod and goes Scheduling;
 * once the pod runs on a node the VMI goes Scheduled on that node, for its virt-handler. A pod
 * that fails or vanishes before the VM runs fails the VMI; a finished VMI's pods are deleted. A
 * running VMI's hotplugged volumes get their attachment pods and volume status. One VMI write per
 * reconcile at most, and none when nothing changed.
 */
export class VmiReconciler {
  readonly #deps: VmiReconcilerDeps;
  readonly #attachments: AttachmentPods;

  constructor(deps: VmiReconcilerDeps) {
    this.#deps = deps;
    const { pods, client, events, expectations, launcherImage, claimReservations } = deps;
    const claimCheck = { claims: deps.claims, pods, vmis: deps.vmis, dataVolumes: deps.dataVolumes };
    this.#attachments = new AttachmentPods({
      pods,
      client,
      events,
      expectations,
      launcherImage,
      claimCheck,
      claimReservations,
    });
  }

  async reconcile(request: ReconcileRequest): Promise<ReconcileResult> {
    const { vmis, pods, expectations, ownWrites, clock } = this.#deps;
    const vmi = vmis.get(request.key);
    if (!vmi) {
      expectations.delete(request.key);
      ownWrites.forget(request.key);
      return {};
    }
    // Our last pod create, or our last VMI write, is not in the cache yet: its event comes.
    if (!expectations.satisfied(request.key)) return CACHE_IS_BEHIND;
    if (ownWrites.cacheIsBehind(request.key, vmi.metadata?.resourceVersion)) return CACHE_IS_BEHIND;
    const owned = pods.byIndex(LAUNCHER_PODS_BY_VMI_UID, vmi.metadata?.uid ?? "");
    const pending = phaseOf(vmi) === "Pending";
    // Defaults and admission rules matter only before the pod exists: later phases skip the work.
    const config = pending ? this.#deps.config.current() : undefined;
    const spec =
      config &&
      defaultVirtualMachineInstanceSpec(
        mutableCopy<VirtualMachineInstanceSpec>(vmi.spec),
        config.defaults,
        vmi.metadata?.name,
      );
    const invalidSpec = spec && invalidSpecOf(vmi, spec, config.featureGates);
    let pod: Frozen<Pod> | Pod | undefined = launcherPodOf(owned);
    let createFailure: PodCreateError | undefined;
    let claimFailure: SyncFailure | undefined;
    if (config && spec && !pod && !invalidSpec && !vmi.metadata?.deletionTimestamp) {
      const { claims, claimReservations } = this.#deps;
      const { dataVolumes } = this.#deps;
      claimFailure = checkAndReserveClaims(vmi, spec, { claims, pods, vmis, dataVolumes }, claimReservations);
      if (claimFailure === undefined) {
        const created = await this.#createPod(request, vmi, spec, {
          useEmulation: config.useEmulation,
          cpuAllocationRatio: config.defaults.cpuAllocationRatio,
        });
        if (created instanceof PodCreateError) {
          createFailure = created;
          claimReservations.release(vmi.metadata?.uid ?? "");
        } else pod = created;
      } else if (!saysAlready(vmi, claimFailure)) {
        this.#deps.events.warning(vmi, claimFailure.reason, claimFailure.message);
      }
    }
    // A missing or busy claim: the VMI waits, and the claim's (or the other pod's) event brings it back.
    const podCreateFailure =
      claimFailure ??
      (createFailure && { reason: createFailure.reason, message: createFailure.conditionMessage });
    const next = nextVmiState({ vmi, pod, invalidSpec, podCreateFailure, nowMs: clock.now() });
    const hotplug = isFinal(next) ? undefined : await this.#attachments.sync(request, vmi);
    if (hotplug?.volumeStatus && next.status) next.status.volumeStatus = hotplug.volumeStatus;
    const written = await this.#write(request, vmi, next);
    // The VMI now says why; the create is retried with backoff, as any failed reconcile is.
    if (createFailure) throw createFailure;
    if (hotplug?.error) throw hotplug.error;
    if (!written) return {};
    const handedToNode = Boolean(next.status?.nodeName);
    if (isFinal(next) || (vmi.metadata?.deletionTimestamp && !handedToNode))
      await this.#deletePods(request, vmi, [...owned, ...this.#attachments.of(vmi)]);
    return {};
  }

  async #createPod(
    request: ReconcileRequest,
    vmi: Frozen<VirtualMachineInstance>,
    spec: VirtualMachineInstanceSpec,
    resources: LauncherResourceOptions,
  ): Promise<Pod | PodCreateError> {
    const { expectations, client, events, launcherImage } = this.#deps;
    expectations.expectCreations(request.key, 1);
    let pod: Pod;
    try {
      const accountSecrets = await serviceAccountPullSecrets(client, vmi.metadata?.namespace ?? "");
      const pullSecrets = vmiPullSecretNames(spec, accountSecrets);
      const manifest = renderLauncherPod(vmi, spec, { image: launcherImage, pullSecrets, ...resources });
      pod = await client.resource(podKind).create(manifest);
    } catch (error) {
      expectations.lower(request.key, 1, 0);
      const failure = new PodCreateError(request.key, error);
      events.warning(vmi, failure.reason, failure.eventMessage);
      return failure;
    }
    request.log.info({ pod: pod.metadata?.name }, "created the launcher pod");
    events.normal(vmi, "SuccessfulCreate", `Created virtual machine pod ${pod.metadata?.name ?? ""}`);
    return pod;
  }

  /** Writes the VMI if it changed; false when the write lost a race (the newer version's event comes). */
  async #write(
    request: ReconcileRequest,
    vmi: Frozen<VirtualMachineInstance>,
    next: VirtualMachineInstance,
  ): Promise<boolean> {
    const { client, events, ownWrites } = this.#deps;
    if (jsonEqual(writtenPart(next), writtenPart(vmi))) return true;
    let stored: VirtualMachineInstance;
    try {
      stored = await client.resource(vmiKind).update(next);
    } catch (error) {
      if (isConflict(error) || isNotFound(error)) return false;
      throw error;
    }
    ownWrites.wrote(request.key, vmi.metadata?.resourceVersion, stored.metadata?.resourceVersion);
    const phase = phaseOf(next);
    if (phase !== phaseOf(vmi)) {
      request.log.info({ phase, node: next.status?.nodeName, reason: next.status?.reason }, "VMI phase");
      if (phase === "Failed") events.warning(vmi, next.status?.reason ?? "Failed", failureMessage(next));
    }
    return true;
  }

  async #deletePods(
    request: ReconcileRequest,
    vmi: Frozen<VirtualMachineInstance>,
    owned: readonly Frozen<Pod>[],
  ): Promise<void> {
    const { client, events } = this.#deps;
    const podClient = client.resource(podKind);
    for (const pod of owned) {
      if (pod.metadata?.deletionTimestamp) continue;
      const ref = { namespace: pod.metadata?.namespace ?? "", name: pod.metadata?.name ?? "" };
      try {
        await podClient.delete(ref, { preconditions: { uid: pod.metadata?.uid ?? "" } });
      } catch (error) {
        if (isNotFound(error) || isConflict(error)) continue;
        throw error;
      }
      request.log.info({ pod: ref.name, phase: vmi.status?.phase }, "deleted the VMI's pod");
      events.normal(vmi, "SuccessfulDelete", `Deleted virtual machine pod ${ref.name}`);
    }
  }
}

/** The VMI's Synchronized condition already gives this failure (its event was sent then). */
function saysAlready(vmi: Frozen<VirtualMachineInstance>, failure: SyncFailure): boolean {
  const type = failure.conditionType ?? "Synchronized";
  const synchronized = vmi.status?.conditions?.find((condition) => condition.type === type);
  return synchronized?.reason === failure.reason && synchronized.message === failure.message;
}

/** KubeVirt's admission rules for the VMI's spec, after its defaults; undefined when valid. */
function invalidSpecOf(
  vmi: Frozen<VirtualMachineInstance>,
  spec: VirtualMachineInstanceSpec,
  featureGates: readonly string[],
): string | undefined {
  const metadata = { name: vmi.metadata?.name, namespace: vmi.metadata?.namespace };
  const causes = validateVirtualMachineInstance(
    { apiVersion: vmi.apiVersion, kind: vmi.kind, metadata, spec },
    { featureGates },
  );
  return causes.length > 0 ? describeCauses(causes) : undefined;
}

/** What virt-controller writes on a VMI (it has no status subresource: all goes in one update). */
function writtenPart(vmi: Frozen<VirtualMachineInstance> | VirtualMachineInstance): unknown {
  return { labels: vmi.metadata?.labels, finalizers: vmi.metadata?.finalizers, status: vmi.status };
}

function failureMessage(vmi: VirtualMachineInstance): string {
  return vmi.status?.conditions?.find((condition) => condition.type === "Ready")?.message ?? "the VMI failed";
}
