// What a burst of VM creations looks like from the API, through watches of one namespace: when
// each VMI appeared, reached each phase and was first seen Running, the writes it took, and when
// its launcher pod was created, bound to a node and seen running. A launcher pod the scheduler
// cannot place ends the burst at once with the scheduler's reason, rather than a timeout later.
// Times are this host's clock (epoch ms; the API server runs on the same machine).

import { LABELS } from "../../../api/index.js";
import type { KubeClient, KubeObject, ResourceKind } from "../../../runtime/index.js";
import {
  LAUNCHER_SELECTOR,
  type Pod,
  podKind,
  type VirtualMachineInstance,
  vmiKind,
  vmKind,
} from "./kinds.js";

export interface LauncherPodRecord {
  readonly uid: string;
  readonly name: string;
  /** When its ADDED event arrived. */
  readonly addedAt: number;
  /** When it was first seen bound to a node (spec.nodeName). */
  boundAt?: number;
  /** When it was first seen in phase Running. */
  runningAt?: number;
}

export interface VmiRecord {
  readonly uid: string;
  /** When the VMI's ADDED event arrived (epoch ms). */
  readonly addedAt: number;
  /** When an event first showed it Running (epoch ms). */
  runningSeenAt?: number;
  /** When an event first showed each phase (epoch ms). */
  readonly phaseSeenAt: Map<string, number>;
  /** MODIFIED events from its creation up to and including the one that showed it Running. */
  writesToRunning: number;
  /** The VMI as it was when first seen Running. */
  running?: VirtualMachineInstance;
  /** Its first launcher pod. */
  pod?: LauncherPodRecord;
}

/** A launcher pod that no node fits: the burst cannot complete as configured. */
export class UnschedulableLauncherError extends Error {
  override readonly name = "UnschedulableLauncherError";
}

export class VmBurstRecorder {
  /** By VMI name. */
  readonly vmis = new Map<string, VmiRecord>();
  readonly launcherPodUids = new Set<string>();
  /** When each VM's ADDED event arrived (epoch ms), by name: the API server and its webhooks stored it. */
  readonly vmAddedAt = new Map<string, number>();
  /** Why the burst cannot complete, if something said so: a watch ended, or a pod fits no node. */
  failure: Error | undefined;
  readonly #abort = new AbortController();
  readonly #watches: Promise<void>[] = [];
  /** Pods seen before their VMI (by VMI uid): the watches race. */
  readonly #podsByVmiUid = new Map<string, LauncherPodRecord>();

  private constructor() {}

  /** Starts watching `namespace` from now on: objects that exist already are not recorded. */
  static async start(client: KubeClient, namespace: string): Promise<VmBurstRecorder> {
    const recorder = new VmBurstRecorder();
    const vmiWatch = await recorder.#watch(client, vmiKind, namespace, undefined, (type, vmi) =>
      recorder.#onVmi(type, vmi),
    );
    const podWatch = await recorder.#watch(client, podKind, namespace, LAUNCHER_SELECTOR, (type, pod) =>
      recorder.#onPod(type, pod),
    );
    const vmWatch = await recorder.#watch(client, vmKind, namespace, undefined, (type, vm) => {
      const name = vm.metadata?.name ?? "";
      if (type === "ADDED" && !recorder.vmAddedAt.has(name)) recorder.vmAddedAt.set(name, Date.now());
    });
    for (const watch of [vmiWatch, podWatch, vmWatch]) {
      recorder.#watches.push(
        watch.done.catch((error: unknown) => {
          recorder.failure ??= error instanceof Error ? error : new Error(String(error));
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
      if (this.vmis.has(name)) return;
      const uid = vmi.metadata?.uid ?? "";
      const pod = this.#podsByVmiUid.get(uid);
      this.vmis.set(name, {
        uid,
        addedAt: now,
        writesToRunning: 0,
        phaseSeenAt: new Map(),
        ...(pod ? { pod } : {}),
      });
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

  #onPod(type: string, pod: Pod): void {
    const now = Date.now();
    const uid = pod.metadata?.uid;
    const vmiUid = pod.metadata?.labels?.[LABELS.createdBy];
    if (uid === undefined || vmiUid === undefined || type === "DELETED") return;
    this.launcherPodUids.add(uid);
    let record = this.#podsByVmiUid.get(vmiUid);
    if (record !== undefined && record.uid !== uid) return; // a later pod of the VMI: counted, not timed
    if (record === undefined) {
      record = { uid, name: pod.metadata?.name ?? "", addedAt: now };
      this.#podsByVmiUid.set(vmiUid, record);
      for (const vmi of this.vmis.values()) if (vmi.uid === vmiUid) vmi.pod = record;
    }
    if (record.boundAt === undefined && pod.spec?.nodeName) record.boundAt = now;
    if (record.runningAt === undefined && pod.status?.phase === "Running") record.runningAt = now;
    const scheduled = pod.status?.conditions?.find((condition) => condition.type === "PodScheduled");
    if (scheduled?.status === "False" && scheduled.reason === "Unschedulable") {
      this.failure ??= new UnschedulableLauncherError(
        `launcher pod ${record.name} is Unschedulable: ${scheduled.message ?? "(no message)"}`,
      );
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
