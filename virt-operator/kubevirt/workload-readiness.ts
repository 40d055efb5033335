import type { Frozen } from "../../runtime/index.js";
import type { InstalledObject } from "./managed-kinds.js";

/**
 * What a Deployment's or DaemonSet's status says about the component it runs, or an
 * APIService's about the API it makes available (an unavailable one fails every console).
 */
export interface Readiness {
  /** Every replica runs the current template and is available. */
  available: boolean;
  /** A rollout is under way: the controller has not seen the current generation, or not every replica is updated. */
  rolling: boolean;
  /** e.g. `Deployment kubevirt/virt-controller: 1 of 2 replicas available, 2 updated`. */
  summary: string;
}

interface WorkloadFields {
  metadata?: { name?: string; namespace?: string; generation?: number };
  spec?: { replicas?: number };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    updatedReplicas?: number;
    availableReplicas?: number;
    desiredNumberScheduled?: number;
    updatedNumberScheduled?: number;
    numberAvailable?: number;
  };
}

interface ApiServiceFields {
  metadata?: { name?: string };
  status?: { conditions?: { type?: string; status?: string; reason?: string; message?: string }[] };
}

/** Readiness of a workload kind or an APIService; undefined for kinds that run nothing (RBAC, CRDs, ...). */
export function readinessOf(kind: string, object: Frozen<InstalledObject>): Readiness | undefined {
  const workload = object as Frozen<WorkloadFields>;
  if (kind === "Deployment") return deploymentReadiness(workload);
  if (kind === "DaemonSet") return daemonSetReadiness(workload);
  if (kind === "APIService") return apiServiceReadiness(object as Frozen<ApiServiceFields>);
  return undefined;
}

/** As the aggregator reports it: its Available condition (absent until it has checked). */
function apiServiceReadiness(apiService: Frozen<ApiServiceFields>): Readiness {
  const available = apiService.status?.conditions?.find((condition) => condition.type === "Available");
  const why = available?.reason
    ? ` (${available.reason}${available.message ? `: ${available.message}` : ""})`
    : "";
  return {
    available: available?.status === "True",
    // Nothing rolls: its availability follows virt-api's, whose Deployment says whether it rolls.
    rolling: false,
    summary: `APIService ${apiService.metadata?.name ?? ""}: Available ${available?.status ?? "unknown"}${why}`,
  };
}

function deploymentReadiness(deployment: Frozen<WorkloadFields>): Readiness {
  const wanted = deployment.spec?.replicas ?? 1;
  const status = deployment.status ?? {};
  const updated = status.updatedReplicas ?? 0;
  const available = status.availableReplicas ?? 0;
  const current = generationObserved(deployment);
  // As `kubectl rollout status`: replicas of an older template still count as a rollout in progress.
  const old = Math.max(0, (status.replicas ?? 0) - updated);
  const rolling = !current || updated !== wanted || old > 0;
  return {
    available: !rolling && available >= wanted,
    rolling,
    summary:
      `Deployment ${nameOf(deployment)}: ${available} of ${wanted} replicas available, ${updated} updated` +
      (old > 0 ? `, ${old} old pending termination` : "") +
      (current ? "" : ", generation not yet observed"),
  };
}

/** A DaemonSet that should run on no node is not available yet: its component runs nowhere. */
function daemonSetReadiness(daemonSet: Frozen<WorkloadFields>): Readiness {
  const status = daemonSet.status ?? {};
  const desired = status.desiredNumberScheduled ?? 0;
  const updated = status.updatedNumberScheduled ?? 0;
  const available = status.numberAvailable ?? 0;
  const current = generationObserved(daemonSet);
  const rolling = !current || updated !== desired;
  return {
    available: !rolling && desired > 0 && available === desired,
    rolling,
    summary:
      `DaemonSet ${nameOf(daemonSet)}: ${available} of ${desired} scheduled pods available, ${updated} updated` +
      (current ? "" : ", generation not yet observed"),
  };
}

function generationObserved(workload: Frozen<WorkloadFields>): boolean {
  const generation = workload.metadata?.generation;
  return generation === undefined || workload.status?.observedGeneration === generation;
}

function nameOf(workload: Frozen<WorkloadFields>): string {
  const { namespace, name } = workload.metadata ?? {};
  return namespace ? `${namespace}/${name ?? ""}` : (name ?? "");
}
