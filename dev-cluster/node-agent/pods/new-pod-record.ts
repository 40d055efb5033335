import { type Frozen, wireTime } from "../../../runtime/index.js";
import { type CachedPod, type Container, podIdentity } from "../kinds.js";
import type { ContainerRecord, PodRecord } from "../state/pod-record.js";

/** The record of a pod the agent has not run before. */
export function newPodRecord(pod: CachedPod, now: number): PodRecord {
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  const seed = (container: Frozen<Container>, init: boolean): ContainerRecord => {
    const before = statuses.find((status) => status.name === container.name);
    // It ran before (an agent that lost its data dir): counting goes on from the reported restarts.
    const restartCount = before?.containerID ? before.restartCount + 1 : 0;
    return { name: container.name, init, image: container.image ?? "", restartCount, backoffSteps: 0 };
  };
  return {
    version: 1,
    ...podIdentity(pod),
    startTime: pod.status?.startTime ?? wireTime(now),
    containers: [
      ...(pod.spec?.initContainers ?? []).map((container) => seed(container, true)),
      ...(pod.spec?.containers ?? []).map((container) => seed(container, false)),
    ],
  };
}
