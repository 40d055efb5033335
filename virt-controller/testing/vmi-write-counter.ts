import type { Logger } from "pino";
import { type KubeClient, SharedInformer } from "../../runtime/index.js";
import { type VirtualMachineInstance, vmiKind } from "../kinds.js";
import { phaseOf } from "../vmi-phase.js";

/**
 * Counts the writes each VMI (by uid) received, by watching it: every change the API server
 * stores is one MODIFIED event with a new resourceVersion. `until(phase)` counts those up to
 * and including the first that put the VMI in that phase.
 */
export class VmiWriteCounter {
  readonly #informer: SharedInformer<VirtualMachineInstance>;
  readonly #phases = new Map<string, string[]>();

  private constructor(client: KubeClient, log: Logger, namespace: string) {
    this.#informer = new SharedInformer<VirtualMachineInstance>({
      client: client.resource(vmiKind),
      log,
      namespace,
    });
    this.#informer.addEventHandler({
      onUpdate: (previous, current) => {
        if (previous.metadata?.resourceVersion === current.metadata?.resourceVersion) return;
        const uid = current.metadata?.uid ?? "";
        this.#phases.set(uid, [...(this.#phases.get(uid) ?? []), phaseOf(current)]);
      },
    });
  }

  static async start(client: KubeClient, log: Logger, namespace: string): Promise<VmiWriteCounter> {
    const counter = new VmiWriteCounter(client, log, namespace);
    counter.#informer.start();
    await counter.#informer.waitForSync();
    return counter;
  }

  /** Writes of VMI `uid` up to the one that reached `phase` (undefined if it did not yet). */
  writesUntil(uid: string, phase: string): number | undefined {
    const phases = this.#phases.get(uid) ?? [];
    const at = phases.indexOf(phase);
    return at < 0 ? undefined : at + 1;
  }

  phasesOf(uid: string): readonly string[] {
    return this.#phases.get(uid) ?? [];
  }

  stop(): Promise<void> {
    return this.#informer.stop();
  }
}
