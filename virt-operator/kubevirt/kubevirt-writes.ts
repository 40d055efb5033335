import type { KubeVirtStatus } from "../../api/index.js";
import {
  type Frozen,
  isNotFound,
  type JsonPatchOperation,
  jsonEqual,
  mutableCopy,
  OwnWrites,
  objectKey,
  type ResourceClient,
} from "../../runtime/index.js";
import type { KubeVirt } from "../kinds.js";
import { OPERATOR_FINALIZER } from "../strategy/install-strategy.js";

/**
 * The operator's writes to KubeVirt CRs: the finalizer and the status. Each is conditional on
 * the resourceVersion it was computed from, and each remembers that version: a reconcile woken
 * before the cache shows our write is skipped (the write's own watch event brings the key back)
 * instead of computing from a stale object and failing with a Conflict.
 */
export class KubeVirtWrites {
  readonly #client: ResourceClient<KubeVirt>;
  readonly #ownWrites = new OwnWrites();

  constructor(client: ResourceClient<KubeVirt>) {
    this.#client = client;
  }

  /** True while the cache still shows the version our last write replaced. */
  cacheIsBehind(kubevirt: Frozen<KubeVirt>): boolean {
    return this.#ownWrites.cacheIsBehind(objectKey(kubevirt), kubevirt.metadata?.resourceVersion);
  }

  forget(key: string): void {
    this.#ownWrites.forget(key);
  }

  /** Writes `status` (status subresource) unless it is what the CR already says. */
  async writeStatus(kubevirt: Frozen<KubeVirt>, status: KubeVirtStatus): Promise<Frozen<KubeVirt>> {
    if (jsonEqual(kubevirt.status ?? {}, status)) return kubevirt;
    const updated = mutableCopy<KubeVirt>(kubevirt);
    updated.status = status;
    return this.#wrote(kubevirt, await this.#client.updateStatus(updated));
  }

  async addFinalizer(kubevirt: Frozen<KubeVirt>): Promise<Frozen<KubeVirt>> {
    const finalizers = kubevirt.metadata?.finalizers;
    if (finalizers?.includes(OPERATOR_FINALIZER)) return kubevirt;
    const add: JsonPatchOperation = finalizers
      ? { op: "add", path: "/metadata/finalizers/-", value: OPERATOR_FINALIZER }
      : { op: "add", path: "/metadata/finalizers", value: [OPERATOR_FINALIZER] };
    return this.#wrote(kubevirt, await this.#client.jsonPatch(refOf(kubevirt), [testVersion(kubevirt), add]));
  }

  /** Removes the operator's finalizer; a CR already gone is what was wanted. */
  async removeFinalizer(kubevirt: Frozen<KubeVirt>): Promise<void> {
    const at = kubevirt.metadata?.finalizers?.indexOf(OPERATOR_FINALIZER) ?? -1;
    if (at < 0) return;
    const path = `/metadata/finalizers/${at}`;
    let after: KubeVirt | undefined;
    try {
      after = await this.#client.jsonPatch(refOf(kubevirt), [
        testVersion(kubevirt),
        { op: "test", path, value: OPERATOR_FINALIZER },
        { op: "remove", path },
      ]);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    // Usually the CR is gone now (no stored version): until the cache says so, reconciles of its
    // old version are skipped.
    this.#ownWrites.wrote(
      objectKey(kubevirt),
      kubevirt.metadata?.resourceVersion,
      after?.metadata?.resourceVersion,
    );
  }

  #wrote(before: Frozen<KubeVirt>, after: KubeVirt): Frozen<KubeVirt> {
    this.#ownWrites.wrote(
      objectKey(before),
      before.metadata?.resourceVersion,
      after.metadata?.resourceVersion,
    );
    return after as Frozen<KubeVirt>;
  }
}

function refOf(kubevirt: Frozen<KubeVirt>): { namespace: string; name: string } {
  return { namespace: kubevirt.metadata?.namespace ?? "", name: kubevirt.metadata?.name ?? "" };
}

function testVersion(kubevirt: Frozen<KubeVirt>): JsonPatchOperation {
  return { op: "test", path: "/metadata/resourceVersion", value: kubevirt.metadata?.resourceVersion };
}
