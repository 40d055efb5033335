import { existsSync } from "node:fs";
import type { Readable } from "node:stream";
import type { Clock } from "../../../runtime/index.js";
import type { PodLogRequest, PodLogSource } from "../../apiserver/pod-logs.js";
import { containerLogPath } from "./log-paths.js";
import { readLogFile } from "./log-reader.js";

/** What the log source needs to know of the containers the agent runs. */
export interface ContainerInstances {
  /** The container's current (or last) instance number, and whether it runs; undefined if it never started here. */
  instance(podUid: string, container: string): { current: number; running: boolean } | undefined;
}

/**
 * The node agent's side of `kubectl logs`: the files its containers write, in kubelet's
 * layout. `previous` is the instance before the current one; `follow` streams until the
 * followed instance ends.
 */
export class ContainerLogSource implements PodLogSource {
  readonly #logsRoot: string;
  readonly #instances: ContainerInstances;
  readonly #clock: Clock;

  constructor(logsRoot: string, instances: ContainerInstances, clock: Clock) {
    this.#logsRoot = logsRoot;
    this.#instances = instances;
    this.#clock = clock;
  }

  async open(request: PodLogRequest): Promise<Readable | undefined> {
    const known = this.#instances.instance(request.podUid, request.container);
    if (!known) return undefined;
    const instance = request.previous ? known.current - 1 : known.current;
    if (instance < 0) return undefined;
    const pod = { uid: request.podUid, namespace: request.namespace, name: request.pod };
    const path = containerLogPath(this.#logsRoot, pod, request.container, instance);
    if (!existsSync(path)) return undefined;
    const isLive = (): boolean => {
      const now = this.#instances.instance(request.podUid, request.container);
      return !request.previous && now !== undefined && now.current === instance && now.running;
    };
    return readLogFile(path, {
      follow: request.follow,
      timestamps: request.timestamps,
      isLive,
      clock: this.#clock,
      ...(request.tailLines !== undefined ? { tailLines: request.tailLines } : {}),
      ...(request.sinceSeconds !== undefined ? { sinceSeconds: request.sinceSeconds } : {}),
      ...(request.limitBytes !== undefined ? { limitBytes: request.limitBytes } : {}),
    });
  }
}
