import type { Logger } from "pino";
import {
  type Clock,
  type Frozen,
  isConflict,
  isNotFound,
  jsonEqual,
  mutableCopy,
  type ResourceClient,
  type SharedInformer,
  wireTime,
} from "../../../runtime/index.js";
import type { CachedPod, ContainerStatus, Node, Pod, PodCondition, PodStatus } from "../kinds.js";
import { AddressPool } from "../network/address-pool.js";
import { parseCidr } from "../network/ipv4.js";

export interface SimulatedPodsOptions {
  pods: ResourceClient<Pod>;
  nodes: SharedInformer<Node>;
  /** Fake pod addresses (default 10.240.0.0/16). */
  cidr: string;
  clock: Clock;
  log: Logger;
}

/**
 * Pods on simulated nodes, as kwok runs them: Running and Ready at once, with a fake address and
 * no process; deleted at once when they get a deletionTimestamp.
 */
export class SimulatedPods {
  readonly #options: SimulatedPodsOptions;
  readonly #pool: AddressPool;
  /** key → the pod uid and the address it got. */
  readonly #addresses = new Map<string, { uid: string; ip: string }>();

  constructor(options: SimulatedPodsOptions) {
    this.#options = options;
    this.#pool = new AddressPool(parseCidr(options.cidr));
  }

  async sync(key: string, pod: CachedPod): Promise<void> {
    const uid = pod.metadata?.uid ?? "";
    if (pod.metadata?.deletionTimestamp) {
      try {
        await this.#options.pods.delete(
          { namespace: pod.metadata.namespace ?? "", name: pod.metadata.name ?? "" },
          { gracePeriodSeconds: 0, preconditions: { uid } },
        );
      } catch (error) {
        if (!isNotFound(error) && !isConflict(error)) throw error;
      }
      return;
    }
    const status = this.#desiredStatus(pod, this.#address(key, pod));
    if (jsonEqual(pod.status ?? {}, status)) return;
    try {
      await this.#options.pods.updateStatus({ ...mutableCopy<Pod>(pod), status });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  /** The pod `key` is gone: its address is free again. */
  forget(key: string): void {
    const known = this.#addresses.get(key);
    if (!known) return;
    this.#pool.release(known.ip);
    this.#addresses.delete(key);
  }

  #address(key: string, pod: CachedPod): string {
    const uid = pod.metadata?.uid ?? "";
    const known = this.#addresses.get(key);
    if (known?.uid === uid) return known.ip;
    if (known) this.#pool.release(known.ip);
    const reported = pod.status?.podIP;
    let ip: string;
    if (reported) {
      this.#pool.claim(reported);
      ip = reported;
    } else ip = this.#pool.allocate();
    this.#addresses.set(key, { uid, ip });
    return ip;
  }

  #desiredStatus(pod: CachedPod, podIP: string): PodStatus {
    const previous = (pod.status ?? {}) as Frozen<PodStatus>;
    const startTime = previous.startTime ?? wireTime(this.#options.clock.now());
    const hostIP = this.#hostIP(pod.spec?.nodeName ?? "");
    const uid = pod.metadata?.uid ?? "";
    const running = (name: string, image: string | undefined): ContainerStatus => ({
      name,
      image: image ?? "",
      imageID: "",
      containerID: `kubevirt-ts-simulated://${uid}/${name}`,
      ready: true,
      started: true,
      restartCount: 0,
      state: { running: { startedAt: startTime } },
      lastState: {},
    });
    const status: PodStatus = {
      ...(structuredClone(previous) as PodStatus),
      phase: "Running",
      conditions: simulatedConditions(previous.conditions ?? [], startTime),
      containerStatuses: (pod.spec?.containers ?? []).map((container) =>
        running(container.name, container.image),
      ),
      podIP,
      podIPs: [{ ip: podIP }],
      hostIP,
      hostIPs: [{ ip: hostIP }],
      startTime,
    };
    const inits = pod.spec?.initContainers ?? [];
    if (inits.length > 0) {
      status.initContainerStatuses = inits.map((container) => ({
        ...running(container.name, container.image),
        ready: false,
        started: false,
        state: {
          terminated: { exitCode: 0, reason: "Completed", startedAt: startTime, finishedAt: startTime },
        },
      }));
    }
    return JSON.parse(JSON.stringify(status)) as PodStatus;
  }

  /** The node's InternalIP, or a fake one when it has none. */
  #hostIP(nodeName: string): string {
    const addresses = this.#options.nodes.get(nodeName)?.status?.addresses ?? [];
    return addresses.find((address) => address.type === "InternalIP")?.address ?? "192.0.2.1";
  }
}

function simulatedConditions(existing: readonly Frozen<PodCondition>[], startTime: string): PodCondition[] {
  const types = ["PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled"];
  const byType = new Map(existing.map((condition) => [condition.type, condition]));
  const ours = types.map((type) => {
    const before = byType.get(type);
    const lastTransitionTime =
      before?.status === "True" && before.lastTransitionTime ? before.lastTransitionTime : startTime;
    return { type, status: "True", lastTransitionTime };
  });
  const others = existing
    .filter((condition) => !types.includes(condition.type))
    .map((c) => structuredClone(c) as PodCondition);
  return [...ours, ...others];
}
