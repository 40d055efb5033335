import type { Readable } from "node:stream";
import type { PodLogRequest, PodLogSource } from "./pod-logs.js";

/**
 * A PodLogSource bound later: the API server starts before the node agent that keeps the logs,
 * and answers "not started yet" until the agent is there.
 */
export class DeferredPodLogs implements PodLogSource {
  #source: PodLogSource | undefined;

  bind(source: PodLogSource): void {
    this.#source = source;
  }

  open(request: PodLogRequest): Promise<Readable | undefined> {
    return this.#source ? this.#source.open(request) : Promise.resolve(undefined);
  }
}
