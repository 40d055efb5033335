import {
  type Clock,
  type EventRecorder,
  type Expectations,
  type Frozen,
  isEmptySelector,
  jsonEqual,
  mutableCopy,
  objectKey,
  type ReconcileRequest,
  type ReconcileResult,
  type ResourceClient,
  type SharedInformer,
  unlessStale,
} from "../../../runtime/index.js";
import { type DaemonSet, daemonSetKind, type Node, type Pod } from "../kinds.js";
import { claimChildren } from "../ownership/claim.js";
import { claimCandidates } from "../ownership/controller-ref.js";
import { labelSelectorOf } from "../ownership/label-selector.js";
import { templateHash } from "../rollout/template-hash.js";
import { daemonPodTemplate, targetNodeOf } from "./daemon-pod.js";
import { planDaemonPods } from "./daemon-set-plan.js";
import { rollingUpdateDeletions } from "./daemon-set-rolling.js";
import { daemonSetStatus } from "./daemon-set-status.js";
import type { FailedPodBackoff } from "./failed-pod-backoff.js";
import { syncNodes } from "./sync-nodes.js";

type PodsByNode = Map<string, Frozen<Pod>[]>;

export interface DaemonSetReconcilerDeps {
  daemonSets: SharedInformer<DaemonSet>;
  nodes: SharedInformer<Node>;
  /** Indexed with ownershipIndexers (claimCandidates reads them). */
  pods: SharedInformer<Pod>;
  daemonSetClient: ResourceClient<DaemonSet>;
  podClient: ResourceClient<Pod>;
  /** Fed by the pods' informer (trackChildExpectations), raised and lowered by syncNodes. */
  expectations: Expectations;
  /** Per DaemonSet and node, how long a failed daemon pod is left before it is killed again. */
  backoff: FailedPodBackoff;
  events: EventRecorder;
  clock: Clock;
}

/**
 * One reconcile of one DaemonSet (kube's syncDaemonSet): claims its pods, creates the missing
 * daemon pods and deletes extra, failed (after back-off) and outdated (RollingUpdate) ones once
 * the cache shows the last writes, and writes the status.
 */
export class DaemonSetReconciler {
  readonly #deps: DaemonSetReconcilerDeps;

  constructor(deps: DaemonSetReconcilerDeps) {
    this.#deps = deps;
  }

  async reconcile(request: ReconcileRequest): Promise<ReconcileResult> {
    const { daemonSets, nodes, pods, podClient, expectations, backoff, events, clock } = this.#deps;
    const daemonSet = daemonSets.get(request.key);
    if (!daemonSet) {
      expectations.delete(request.key);
      backoff.forget(request.key);
      return {};
    }
    const selector = labelSelectorOf(daemonSet.spec?.selector);
    if (isEmptySelector(selector)) {
      events.warning(
        daemonSet,
        "SelectingAll",
        "This daemon set is selecting all pods. A non-empty selector is required.",
      );
      return {};
    }
    if (daemonSet.metadata?.deletionTimestamp) return {};
    const hash = templateHash(daemonSet.spec?.template, daemonSet.status?.collisionCount);
    const owned = await claimChildren<Pod>({
      owner: daemonSet,
      ownerKind: daemonSetKind,
      selector,
      candidates: claimCandidates(pods, daemonSet),
      children: podClient,
    });
    const podsByNode = groupByTargetNode(owned);
    const nodeList = nodes.list();
    const acted = expectations.satisfied(request.key);
    let retryFailedAfterMs: number | undefined;
    if (acted) retryFailedAfterMs = await this.#manage(request, daemonSet, nodeList, podsByNode, hash);
    const status = daemonSetStatus(daemonSet, nodeList, podsByNode, hash, acted, clock.now());
    if (!jsonEqual(daemonSet.status ?? {}, status)) {
      const updated = mutableCopy<DaemonSet>(daemonSet);
      updated.status = status;
      await unlessStale(() => this.#deps.daemonSetClient.updateStatus(updated), request.log, "status update");
    }
    const minReadySeconds = daemonSet.spec?.minReadySeconds ?? 0;
    const availabilityCheck =
      minReadySeconds > 0 && status.numberReady !== (status.numberAvailable ?? 0)
        ? minReadySeconds * 1000
        : undefined;
    const after = Math.min(retryFailedAfterMs ?? Infinity, availabilityCheck ?? Infinity);
    return Number.isFinite(after) ? { requeueAfterMs: after } : {};
  }

  /** Plans and writes one step; returns when to look again for failed pods still in back-off. */
  async #manage(
    request: ReconcileRequest,
    daemonSet: Frozen<DaemonSet>,
    nodeList: readonly Frozen<Node>[],
    podsByNode: PodsByNode,
    hash: string,
  ): Promise<number | undefined> {
    const { podClient, expectations, backoff, events, clock } = this.#deps;
    const plan = planDaemonPods(daemonSet, nodeList, podsByNode);
    const remove = new Map(plan.delete.map((pod) => [objectKey(pod), pod]));
    let retryAfterMs: number | undefined;
    for (const { pod, node } of plan.failed) {
      const backoffKey = `${request.key}/${node}`;
      const wait = backoff.remainingMs(backoffKey);
      if (wait > 0) {
        retryAfterMs = Math.min(retryAfterMs ?? wait, wait);
        continue;
      }
      backoff.next(backoffKey);
      events.warning(
        daemonSet,
        "FailedDaemonPod",
        `Found failed daemon pod ${objectKey(pod)} on node ${node}, will try to kill it`,
      );
      remove.set(objectKey(pod), pod);
    }
    if ((daemonSet.spec?.updateStrategy?.type ?? "RollingUpdate") === "RollingUpdate") {
      for (const pod of rollingUpdateDeletions(daemonSet, nodeList, podsByNode, hash, clock.now()))
        remove.set(objectKey(pod), pod);
    }
    await syncNodes({
      daemonSet,
      key: request.key,
      template: daemonPodTemplate(daemonSet, hash),
      createOn: plan.create,
      remove: [...remove.values()],
      podClient,
      expectations,
      events,
    });
    return retryAfterMs;
  }
}

/** Daemon pods by the node they are for; a pod pinned to no node is left out (kube logs and skips it). */
function groupByTargetNode(pods: readonly Frozen<Pod>[]): PodsByNode {
  const byNode: PodsByNode = new Map();
  for (const pod of pods) {
    const node = targetNodeOf(pod);
    if (node === undefined) continue;
    byNode.set(node, [...(byNode.get(node) ?? []), pod]);
  }
  return byNode;
}
