import type { Logger } from "pino";
import { isNotFound } from "../client/api-errors.js";
import type { ResourceClient } from "../client/resource-client.js";
import { type Clock, systemClock } from "../clock/clock.js";
import { wireTime } from "../clock/wire-time.js";
import type { Frozen, KubeObject } from "../objects/kube-object.js";
import type { CoreEvent, EventType } from "./event.js";

export interface EventRecorderOptions {
  events: ResourceClient<CoreEvent>;
  /** Shown as the event's source, e.g. "virt-controller". */
  component: string;
  /** Node or pod name of this instance. */
  host?: string;
  log: Logger;
  clock?: Clock;
  /** Distinct events remembered for aggregation (default 4096, least recently used dropped). */
  cacheSize?: number;
  /** Writes waiting at most; beyond, events are dropped with a warning (default 1000). */
  maxPending?: number;
}

interface Seen {
  name: string;
  namespace: string;
  count: number;
  firstTimestamp: string;
}

/**
 * Records core/v1 Events about objects. A repeat of the same event (same object, type,
 * reason, message and source) does not create a new Event: the existing one's count and
 * lastTimestamp are bumped, as client-go's EventCorrelator does. Writes are queued and sent
 * one at a time off the caller's path: recording never blocks or fails a reconcile; a failed
 * write is logged. `flush` waits for the queue (tests, shutdown).
 */
export class EventRecorder {
  readonly #options: EventRecorderOptions;
  readonly #clock: Clock;
  readonly #seen = new Map<string, Seen>();
  #tail: Promise<void> = Promise.resolve();
  #pending = 0;
  #sequence = 0;

  constructor(options: EventRecorderOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
  }

  normal(object: KubeObject | Frozen<KubeObject>, reason: string, message: string): void {
    this.record(object, "Normal", reason, message);
  }

  warning(object: KubeObject | Frozen<KubeObject>, reason: string, message: string): void {
    this.record(object, "Warning", reason, message);
  }

  record(object: KubeObject | Frozen<KubeObject>, type: EventType, reason: string, message: string): void {
    if (this.#pending >= (this.#options.maxPending ?? 1000)) {
      this.#options.log.warn(
        { reason, object: object.metadata?.name },
        "too many events waiting to be written: dropping one",
      );
      return;
    }
    this.#pending++;
    const at = this.#clock.now();
    this.#tail = this.#tail
      .then(() => this.#write(object, type, reason, message, at))
      .catch((error: unknown) => this.#options.log.warn({ err: error, reason }, "cannot record an event"))
      .finally(() => {
        this.#pending--;
      });
  }

  /** Resolves once every event recorded so far was written (or failed). */
  flush(): Promise<void> {
    return this.#tail;
  }

  async #write(
    object: KubeObject | Frozen<KubeObject>,
    type: EventType,
    reason: string,
    message: string,
    at: number,
  ): Promise<void> {
    const meta = object.metadata;
    const involvedObject = {
      apiVersion: object.apiVersion,
      kind: object.kind,
      namespace: meta?.namespace,
      name: meta?.name,
      uid: meta?.uid,
      resourceVersion: meta?.resourceVersion,
    };
    const { component, host } = this.#options;
    const key = JSON.stringify([
      involvedObject.kind,
      involvedObject.namespace,
      involvedObject.name,
      involvedObject.uid,
      type,
      reason,
      message,
      component,
      host,
    ]);
    const now = wireTime(at);
    const seen = this.#seen.get(key);
    if (seen && (await this.#bump(seen, now))) {
      this.#remember(key, seen);
      return;
    }
    const namespace = meta?.namespace || "default";
    const name = `${meta?.name ?? "object"}.${(at * 1000 + (this.#sequence++ % 1000)).toString(16)}`;
    await this.#options.events.create({
      metadata: { name, namespace },
      involvedObject,
      reason,
      message,
      type,
      source: { component, ...(host ? { host } : {}) },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      reportingComponent: component,
      reportingInstance: host ?? "",
    });
    this.#remember(key, { name, namespace, count: 1, firstTimestamp: now });
  }

  /** Counts a repeat on the existing Event; false when it is gone (expired) and a new one is needed. */
  async #bump(seen: Seen, now: string): Promise<boolean> {
    try {
      await this.#options.events.mergePatch(
        { namespace: seen.namespace, name: seen.name },
        { count: seen.count + 1, lastTimestamp: now },
      );
      seen.count++;
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  #remember(key: string, seen: Seen): void {
    this.#seen.delete(key);
    this.#seen.set(key, seen);
    const limit = this.#options.cacheSize ?? 4096;
    while (this.#seen.size > limit) {
      const oldest = this.#seen.keys().next().value as string;
      this.#seen.delete(oldest);
    }
  }
}
