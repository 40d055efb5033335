import {
  type Controller,
  controllerOwnerKey,
  Expectations,
  type Frozen,
  isEmptySelector,
  jsonEqual,
  type KeyMapper,
  mutableCopy,
  objectKey,
  type ReconcileRequest,
  type ReconcileResult,
  type SharedInformer,
  unlessStale,
} from "../../../runtime/index.js";
import type { ControllerContext } from "../controller-context.js";
import { type DaemonSet, daemonSetKind, type Node, nodeKind, type Pod, podKind } from "../kinds.js";
import { claimChildren } from "../ownership/claim.js";
import { claimCandidates, controllerOf, ownershipIndexers } from "../ownership/controller-ref.js";
import { trackChildExpectations } from "../ownership/expectation-tracking.js";
import { labelSelectorOf, selects } from "../ownership/label-selector.js";
import { templateHash } from "../rollout/template-hash.js";
import { daemonPodTemplate, targetNodeOf } from "./daemon-pod.js";
import { planDaemonPods } from "./daemon-set-plan.js";
import { rollingUpdateDeletions } from "./daemon-set-rolling.js";
import { daemonSetStatus } from "./daemon-set-status.js";
import { FailedPodBackoff } from "./failed-pod-backoff.js";
import { syncNodes } from "./sync-nodes.js";

type PodsByNode = Map<string, Frozen<Pod>[]>;

/**
 * The DaemonSet controller (kube's daemon controller): a pod for every node that admits the
 * DaemonSet, pinned to it by node affinity and bound by the default scheduler; extras and pods
 * on nodes that no longer admit it deleted; RollingUpdate within maxUnavailable.
 */
export function addDaemonSetController(context: ControllerContext): Controller {
  const { manager, clock } = context;
  const daemonSets = manager.informer(daemonSetKind);
  const nodes = manager.informer(nodeKind);
  const pods = manager.informer<Pod>(podKind, { indexers: ownershipIndexers });
  const podClient = manager.client.resource(podKind);
  const expectations = new Expectations({ clock });
  const backoff = new FailedPodBackoff(clock);
  const controller = manager.controller({
    name: "daemonset",
    workers: context.workers,
    reconcile: (request) => syncDaemonSet(request),
  });
  controller.watch(daemonSets);
  controller.watch(pods, daemonSetsOfPod(daemonSets));
  controller.dependsOn(nodes);
  const enqueueAll = (): void => {
    for (const key of daemonSets.keys()) controller.enqueue(key);
  };
  nodes.addEventHandler({
    onAdd: enqueueAll,
    onDelete: enqueueAll,
    onUpdate: (previous, current) => {
      if (nodeChangeMatters(previous, current)) enqueueAll();
    },
  });
  trackChildExpectations(pods, daemonSetKind, expectations);

  async function syncDaemonSet(request: ReconcileRequest): Promise<ReconcileResult | undefined> {
    const daemonSet = daemonSets.get(request.key);
    if (!daemonSet) {
      expectations.delete(request.key);
      backoff.forget(request.key);
      return undefined;
    }
    const selector = labelSelectorOf(daemonSet.spec?.selector);
    if (isEmptySelector(selector)) {
      manager.events.warning(
        daemonSet,
        "SelectingAll",
        "This daemon set is selecting all pods. A non-empty selector is required.",
      );
      return undefined;
    }
    if (daemonSet.metadata?.deletionTimestamp) return undefined;
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
    if (acted) retryFailedAfterMs = await manage(request, daemonSet, nodeList, podsByNode, hash);
    const status = daemonSetStatus(daemonSet, nodeList, podsByNode, hash, acted, clock.now());
    if (!jsonEqual(daemonSet.status ?? {}, status)) {
      const updated = mutableCopy<DaemonSet>(daemonSet);
      updated.status = status;
      await unlessStale(
        () => manager.client.resource(daemonSetKind).updateStatus(updated),
        request.log,
        "status update",
      );
    }
    const minReadySeconds = daemonSet.spec?.minReadySeconds ?? 0;
    const availabilityCheck =
      minReadySeconds > 0 && status.numberReady !== (status.numberAvailable ?? 0)
        ? minReadySeconds * 1000
        : undefined;
    const after = Math.min(retryFailedAfterMs ?? Infinity, availabilityCheck ?? Infinity);
    return Number.isFinite(after) ? { requeueAfterMs: after } : undefined;
  }

  /** Plans and writes one step; returns when to look again for failed pods still in back-off. */
  async function manage(
    request: ReconcileRequest,
    daemonSet: Frozen<DaemonSet>,
    nodeList: readonly Frozen<Node>[],
    podsByNode: PodsByNode,
    hash: string,
  ): Promise<number | undefined> {
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
      manager.events.warning(
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
      events: manager.events,
    });
    return retryAfterMs;
  }

  return controller;
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

/** A heartbeat changes nothing a DaemonSet depends on; labels, spec (taints) and condition states do. */
function nodeChangeMatters(previous: Frozen<Node>, current: Frozen<Node>): boolean {
  const states = (node: Frozen<Node>): string[] =>
    (node.status?.conditions ?? []).map((condition) => `${condition.type}=${condition.status}`).sort();
  return (
    !jsonEqual(previous.metadata?.labels, current.metadata?.labels) ||
    !jsonEqual(previous.spec, current.spec) ||
    !jsonEqual(states(previous), states(current))
  );
}

/** A pod enqueues its controlling DaemonSet, or, as an orphan, every DaemonSet that could adopt it. */
function daemonSetsOfPod(daemonSets: SharedInformer<DaemonSet>): KeyMapper<Pod> {
  const owner = controllerOwnerKey<Pod>(daemonSetKind);
  return (pod) => {
    if (controllerOf(pod)) return owner(pod);
    return daemonSets
      .list({ namespace: pod.metadata?.namespace ?? "" })
      .filter((daemonSet) => selects(daemonSet.spec?.selector, pod))
      .map(objectKey);
  };
}
