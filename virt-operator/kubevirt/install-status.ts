import type { KUBEVIRT_CONDITION_TYPES, KubeVirtStatus } from "../../api/index.js";
import { type ConditionUpdate, type Frozen, setConditions } from "../../runtime/index.js";
import type { KubeVirt } from "../kinds.js";
import type { InstallStrategy, OperatorIdentity } from "../strategy/install-strategy.js";
import type { Readiness } from "./workload-readiness.js";

/** What one install pass found, after its writes. */
export interface InstallObservation {
  strategy: InstallStrategy;
  /** CRDs of the strategy not yet Established: nothing else is applied until they are. */
  crdsPending: readonly string[];
  /** Objects of the strategy that do not exist (not applied yet, or their apply failed). */
  missing: readonly string[];
  /** Every Deployment, DaemonSet and APIService of the strategy that exists. */
  workloads: readonly Readiness[];
  /** An apply or delete that failed (it is retried with backoff). */
  failure?: { reason: string; message: string };
}

export const REASONS = {
  ready: "AllComponentsReady",
  inProgress: "DeploymentInProgress",
  unavailable: "ComponentsUnavailable",
} as const;

/**
 * The active KubeVirt's status while it is installed: phase Deploying until every object of the
 * target strategy exists and every workload is available, then Deployed (the observed* fields
 * catch up with the target* ones). Progressing while that is not reached or a rollout runs;
 * Degraded when something of a completed install became unavailable (or a write fails).
 */
export function computeInstallStatus(
  kubevirt: Frozen<KubeVirt>,
  identity: OperatorIdentity,
  observation: InstallObservation,
  nowMs: number,
): KubeVirtStatus {
  const { strategy, failure } = observation;
  const previous = (kubevirt.status ?? {}) as Frozen<KubeVirtStatus>;
  const unready = observation.workloads.filter((workload) => !workload.available);
  const waiting = observation.crdsPending.length > 0 || observation.missing.length > 0;
  const rolling = waiting || observation.workloads.some((workload) => workload.rolling);
  const complete = !waiting && !failure && unready.length === 0;
  const observed = complete
    ? { registry: strategy.registry, version: strategy.version, id: strategy.id }
    : {
        registry: previous.observedKubeVirtRegistry,
        version: previous.observedKubeVirtVersion,
        id: previous.observedDeploymentID,
      };
  const reachedTarget = observed.id === strategy.id;
  const detail = complete ? "All components are ready." : describeWait(strategy, observation, unready);
  const notReadyReason = reachedTarget ? REASONS.unavailable : REASONS.inProgress;
  const conditions: ConditionUpdate[] = [
    complete
      ? condition("Available", "True", REASONS.ready, detail)
      : condition("Available", "False", notReadyReason, detail),
    !complete && (!reachedTarget || rolling)
      ? condition("Progressing", "True", REASONS.inProgress, detail)
      : condition("Progressing", "False", complete ? REASONS.ready : notReadyReason, detail),
    failure
      ? condition("Degraded", "True", failure.reason, failure.message)
      : !complete && reachedTarget
        ? condition("Degraded", "True", REASONS.unavailable, detail)
        : condition("Degraded", "False", complete ? REASONS.ready : REASONS.inProgress, detail),
  ];
  const status: KubeVirtStatus = {
    ...(structuredClone(previous) as KubeVirtStatus),
    phase: reachedTarget ? "Deployed" : "Deploying",
    conditions: setConditions(previous.conditions, conditions, nowMs, "onChange"),
    operatorVersion: identity.version,
    targetKubeVirtRegistry: strategy.registry,
    targetKubeVirtVersion: strategy.version,
    targetDeploymentID: strategy.id,
  };
  setOptional(status, "observedKubeVirtRegistry", observed.registry);
  setOptional(status, "observedKubeVirtVersion", observed.version);
  setOptional(status, "observedDeploymentID", observed.id);
  setOptional(status, "observedGeneration", kubevirt.metadata?.generation);
  return status;
}

function condition(
  type: (typeof KUBEVIRT_CONDITION_TYPES)[keyof typeof KUBEVIRT_CONDITION_TYPES],
  status: "True" | "False",
  reason: string,
  message: string,
): ConditionUpdate {
  return { type, status, reason, message };
}

function describeWait(
  strategy: InstallStrategy,
  observation: InstallObservation,
  unready: readonly Readiness[],
): string {
  const target = `Deploying ${strategy.version} from ${strategy.registry}`;
  if (observation.failure) return `${target}: ${observation.failure.message}`;
  if (observation.crdsPending.length > 0)
    return `${target}: waiting for CRDs to be established: ${observation.crdsPending.join(", ")}`;
  if (observation.missing.length > 0) return `${target}: creating ${observation.missing.join(", ")}`;
  return `${target}: waiting for ${unready.map((workload) => workload.summary).join("; ")}`;
}

function setOptional<K extends keyof KubeVirtStatus>(
  status: KubeVirtStatus,
  key: K,
  value: KubeVirtStatus[K] | undefined,
): void {
  if (value === undefined) delete status[key];
  else status[key] = value;
}
