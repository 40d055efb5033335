// Records the lifecycle events of one domain, by name, from before it is even defined.
import type { Connection, LifecycleEvent, LifecycleEventKind, Subscription } from "../../../libvirt/index.js";
import { waitUntil } from "./wait-until.js";

export class LifecycleRecorder {
  readonly events: LifecycleEvent[] = [];
  readonly #subscription: Subscription;

  constructor(connection: Connection, domainName: string) {
    this.#subscription = connection.onLifecycle((event) => {
      if (event.domain.name === domainName) this.events.push(event);
    });
  }

  /** Kind and detail of every event so far, e.g. "stopped/0". */
  summary(): string[] {
    return this.events.map((event) => `${event.kind}/${event.detail}`);
  }

  count(kind: LifecycleEventKind): number {
    return this.events.filter((event) => event.kind === kind).length;
  }

  /** Waits until `kind` has arrived `times` times in all, and returns the last of them. */
  async waitFor(kind: LifecycleEventKind, timeoutMs: number, times = 1): Promise<LifecycleEvent> {
    await waitUntil(
      () => this.count(kind) >= times,
      timeoutMs,
      () => `lifecycle event "${kind}" #${times} (so far: ${this.summary().join(", ") || "none"})`,
    );
    return this.events.filter((event) => event.kind === kind)[times - 1] as LifecycleEvent;
  }

  stop(): void {
    this.#subscription.unsubscribe();
  }
}
