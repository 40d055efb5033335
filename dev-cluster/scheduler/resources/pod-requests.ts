import type { Frozen } from "../../../runtime/index.js";
import type { Container, Pod } from "../kinds.js";
import {
  addAmounts,
  amountsFromList,
  emptyAmounts,
  maxAmounts,
  type ResourceAmounts,
  type ResourceList,
} from "./resource-amounts.js";

/** What kube-scheduler assumes a container without a cpu or memory request uses, for scoring only. */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

export interface PodRequest {
  /** What the pod reserves on its node (filters and accounting). */
  amounts: ResourceAmounts;
  /** cpu and memory with the defaults above for containers that request none (scoring). */
  nonZeroMilliCpu: number;
  nonZeroMemory: number;
}

type FrozenContainer = Frozen<Container>;

function containerRequests(container: FrozenContainer): ResourceAmounts {
  const { requests, limits } = container.resources ?? {};
  // The API server defaults a missing request to its limit; do it here too, not to depend on it.
  const merged: Record<string, string | number> = {
    ...(limits as ResourceList | undefined),
    ...(requests as ResourceList | undefined),
  };
  return amountsFromList(merged);
}

function nonZero(amounts: ResourceAmounts, container: FrozenContainer): { cpu: number; memory: number } {
  const requests = { ...container.resources?.limits, ...container.resources?.requests };
  return {
    cpu: "cpu" in requests ? amounts.milliCpu : DEFAULT_MILLI_CPU_REQUEST,
    memory: "memory" in requests ? amounts.memory : DEFAULT_MEMORY_REQUEST,
  };
}

/**
 * The pod's effective request (resourcehelper.PodRequests): the sum of its containers and of its
 * sidecars (init containers with restartPolicy Always), or the peak of any one init container
 * plus the sidecars started before it, whichever is larger; plus the pod overhead.
 */
export function podRequest(pod: Frozen<Pod>): PodRequest {
  const running = emptyAmounts();
  let nonZeroMilliCpu = 0;
  let nonZeroMemory = 0;
  for (const container of pod.spec?.containers ?? []) {
    const amounts = containerRequests(container);
    addAmounts(running, amounts);
    const defaults = nonZero(amounts, container);
    nonZeroMilliCpu += defaults.cpu;
    nonZeroMemory += defaults.memory;
  }
  const sidecars = emptyAmounts();
  const initPeak = emptyAmounts();
  for (const container of pod.spec?.initContainers ?? []) {
    const amounts = containerRequests(container);
    if (container.restartPolicy === "Always") {
      addAmounts(sidecars, amounts);
      const defaults = nonZero(amounts, container);
      nonZeroMilliCpu += defaults.cpu;
      nonZeroMemory += defaults.memory;
      continue;
    }
    const withSidecars = emptyAmounts();
    addAmounts(withSidecars, amounts);
    addAmounts(withSidecars, sidecars);
    maxAmounts(initPeak, withSidecars);
  }
  addAmounts(running, sidecars);
  maxAmounts(running, initPeak);
  const overhead = amountsFromList(pod.spec?.overhead as ResourceList | undefined);
  addAmounts(running, overhead);
  return {
    amounts: running,
    nonZeroMilliCpu: nonZeroMilliCpu + overhead.milliCpu,
    nonZeroMemory: nonZeroMemory + overhead.memory,
  };
}
