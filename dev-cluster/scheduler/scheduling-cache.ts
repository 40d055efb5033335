import { type Frozen, objectKey } from "../../runtime/index.js";
import type { Node, Pod } from "./kinds.js";
import { type NodeInfo, NodeUsage, nodeInfoOf } from "./node-info.js";
import { type PodRequest, podRequest } from "./resources/pod-requests.js";

interface CountedPod {
  uid: string;
  nodeName: string;
  request: PodRequest;
  /** Placed by this scheduler, before the informer has shown the binding. */
  assumed: boolean;
}

export function isTerminal(pod: Frozen<Pod>): boolean {
  return pod.status?.phase === "Succeeded" || pod.status?.phase === "Failed";
}

/**
 * kube-scheduler's cache: every node with what its pods reserve, kept incrementally from the
 * pod and node informers, plus the pods this scheduler placed whose binding the informer has not
 * shown yet ("assumed"), so that two pods placed back to back see each other.
 */
export class SchedulingCache {
  readonly #nodes = new Map<string, Frozen<Node>>();
  readonly #usage = new Map<string, NodeUsage>();
  readonly #pods = new Map<string, CountedPod>();
  #infos: NodeInfo[] | undefined;

  setNode(node: Frozen<Node>): void {
    const name = node.metadata?.name;
    if (!name) return;
    this.#nodes.set(name, node);
    this.#infos = undefined;
  }

  removeNode(name: string): void {
    if (this.#nodes.delete(name)) this.#infos = undefined;
  }

  /** Every node, sorted by name (ties in scoring go to the first). */
  nodeInfos(): readonly NodeInfo[] {
    this.#infos ??= [...this.#nodes.values()]
      .map((node) => nodeInfoOf(node, this.#usageOf(node.metadata?.name ?? "")))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return this.#infos;
  }

  /** Counts a pod the informer added or updated: bound and not terminal pods reserve resources. */
  observePod(pod: Frozen<Pod>): void {
    const key = objectKey(pod);
    const uid = pod.metadata?.uid ?? "";
    const nodeName = pod.spec?.nodeName;
    const entry = this.#pods.get(key);
    if (nodeName && !isTerminal(pod)) {
      if (entry) this.#uncount(key, entry);
      this.#count(key, { uid, nodeName, request: podRequest(pod), assumed: false });
      return;
    }
    if (!entry) return;
    // Our binding is not in the informer yet: keep the assumption.
    if (entry.assumed && entry.uid === uid && !isTerminal(pod)) return;
    this.#uncount(key, entry);
  }

  removePod(pod: Frozen<Pod>): void {
    const key = objectKey(pod);
    const entry = this.#pods.get(key);
    if (entry && entry.uid === (pod.metadata?.uid ?? "")) this.#uncount(key, entry);
  }

  assume(pod: Frozen<Pod>, request: PodRequest, nodeName: string): void {
    const key = objectKey(pod);
    const entry = this.#pods.get(key);
    if (entry) this.#uncount(key, entry);
    this.#count(key, { uid: pod.metadata?.uid ?? "", nodeName, request, assumed: true });
  }

  /** Drops an assumption whose binding failed. */
  forget(pod: Frozen<Pod>): void {
    const key = objectKey(pod);
    const entry = this.#pods.get(key);
    if (entry?.assumed && entry.uid === (pod.metadata?.uid ?? "")) this.#uncount(key, entry);
  }

  /** True while this scheduler's binding of this very pod is in flight or not yet observed. */
  isAssumed(pod: Frozen<Pod>): boolean {
    const entry = this.#pods.get(objectKey(pod));
    return entry?.assumed === true && entry.uid === (pod.metadata?.uid ?? "");
  }

  #count(key: string, entry: CountedPod): void {
    this.#pods.set(key, entry);
    this.#usageOf(entry.nodeName).add(entry.request, 1);
  }

  #uncount(key: string, entry: CountedPod): void {
    this.#pods.delete(key);
    this.#usageOf(entry.nodeName).add(entry.request, -1);
  }

  #usageOf(nodeName: string): NodeUsage {
    let usage = this.#usage.get(nodeName);
    if (!usage) {
      usage = new NodeUsage();
      this.#usage.set(nodeName, usage);
    }
    return usage;
  }
}
