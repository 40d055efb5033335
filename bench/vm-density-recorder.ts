// What the density benchmark observes through watches of one namespace: when each VMI appeared and
// was first seen Running, the writes (MODIFIED events) it took to get there, and how many launcher
// pods were created. Times are this host's clock (the API server runs on the same machine).
import type { KubeClient, KubeObject, ResourceKind } from "../runtime/index.js";
import {
  LAUNCHER_SELECTOR,
  podKind,
  type VirtualMachineInstance,
  vmiKind,
} from "../test/e2e/testing/kinds.js";

export interface VmiRecord {
  /** When the VMI's ADDED event arrived (epoch ms). */
  addedAt: number;
  /** When an event first showed it Running (epoch ms). */
  runningSeenAt?: number;
  /** When an event first showed each phase (epoch ms). */
  phaseSeenAt: Map<string, number>;
  /** MODIFIED events from its creation up to and including the one that showed it Running. */
  writesToRunning: number;
  /** The VMI as it was when first seen Running. */
  running?: VirtualMachineInstance;
}

export class DensityRecorder {
  readonly vmis = new Map<string, VmiRecord>();
  readonly launcherPodUids = new Set<string>();
  /** Why a watch stopped early, if one did: the figures would be incomplete. */
  failure: Error | undefined;
  readonly #abort = new AbortController();
  readonly #watches: Promise<void>[] = [];

  private constructor() {}

  /** Starts watching `namespace` from now on: objects that exist already are not recorded. */
  static async start(client: KubeClient, namespace: string): Promise<DensityRecorder> {
    const recorder = new DensityRecorder();
    const vmiWatch = await recorder.#watch(client, vmiKind, namespace, undefined, (type, vmi) =>
      recorder.#onVmi(type, vmi),
    );
    const podWatch = await recorder.#watch(client, podKind, namespace, LAUNCHER_SELECTOR, (type, pod) => {
      if (type === "ADDED" && pod.metadata?.uid) recorder.launcherPodUids.add(pod.metadata.uid);
    });
    for (const watch of [vmiWatch, podWatch]) {
      recorder.#watches.push(
        watch.done.catch((error: unknown) => {
          recorder.failure = error instanceof Error ? error : new Error(String(error));
        }),
      );
    }
    return recorder;
  }

  runningCount(): number {
    let count = 0;
    for (const record of this.vmis.values()) if (record.runningSeenAt !== undefined) count++;
    return count;
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    await Promise.allSettled(this.#watches);
  }

  #onVmi(type: string, vmi: VirtualMachineInstance): void {
    const name = vmi.metadata?.name ?? "";
    const now = Date.now();
    if (type === "ADDED") {
      if (!this.vmis.has(name))
        this.vmis.set(name, { addedAt: now, writesToRunning: 0, phaseSeenAt: new Map() });
      return;
    }
    const record = this.vmis.get(name);
    if (type !== "MODIFIED" || !record || record.runningSeenAt !== undefined) return;
    record.writesToRunning++;
    const phase = vmi.status?.phase;
    if (phase && !record.phaseSeenAt.has(phase)) record.phaseSeenAt.set(phase, now);
    if (phase === "Running") {
      record.runningSeenAt = now;
      record.running = vmi;
    }
  }

  /**
   * Lists (for the resourceVersion), then watches from there until stopped; a watch the server
   * ends is resumed from the last resourceVersion seen, so no event is lost.
   */
  async #watch<T extends KubeObject>(
    client: KubeClient,
    kind: ResourceKind<T>,
    namespace: string,
    labelSelector: string | undefined,
    onEvent: (type: string, object: T) => void,
  ): Promise<{ done: Promise<void> }> {
    const resource = client.resource(kind);
    let resourceVersion = (await resource.list({ namespace, ...(labelSelector ? { labelSelector } : {}) }))
      .resourceVersion;
    const signal = this.#abort.signal;
    const open = () =>
      resource.watch({ namespace, resourceVersion, signal, ...(labelSelector ? { labelSelector } : {}) });
    let events = await open();
    const done = (async () => {
      while (!signal.aborted) {
        try {
          for await (const event of events) {
            if (event.type === "ERROR")
              throw new Error(`watch of ${kind.plural} failed: ${event.object.message}`);
            resourceVersion = event.object.metadata?.resourceVersion ?? resourceVersion;
            if (event.type !== "BOOKMARK") onEvent(event.type, event.object);
          }
        } catch (error) {
          if (signal.aborted) return;
          throw error;
        }
        if (!signal.aborted) events = await open();
      }
    })();
    return { done };
  }
}
