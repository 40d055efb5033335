import { isNotFound, jsonEqual, mutableCopy, type ResourceClient } from "../../../runtime/index.js";
import type { CachedPod, Pod, PodStatus } from "../kinds.js";

/**
 * Writes a pod's status through the status subresource, only when it changed. The informer
 * cache may not show the last write yet: while the cached pod is still the version that write
 * was based on, that write (not the cache) is what the new status is compared with and built on.
 */
export class PodStatusWriter {
  readonly #pods: ResourceClient<Pod>;
  #lastWrite: { basedOn: string | undefined; status: PodStatus } | undefined;

  constructor(pods: ResourceClient<Pod>) {
    this.#pods = pods;
  }

  /** `compute` gets the pod with the status to build on. A conflict throws (the caller retries). */
  async write(pod: CachedPod, compute: (current: CachedPod) => PodStatus): Promise<void> {
    const basedOn = pod.metadata?.resourceVersion;
    const last = this.#lastWrite;
    const previous = last && last.basedOn === basedOn ? last.status : pod.status;
    const status = compute({ ...pod, status: previous } as CachedPod);
    if (jsonEqual(previous ?? {}, status)) return;
    try {
      await this.#pods.updateStatus({ ...mutableCopy<Pod>(pod), status });
      this.#lastWrite = { basedOn, status };
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
}
