import type { Clock, Frozen } from "../../../runtime/index.js";
import type { Probe } from "../kinds.js";
import { type ProbeOutcome, type ProbeTarget, runProbe } from "./probe-action.js";

export type ProbeKind = "startup" | "readiness" | "liveness";

export interface ProbeRunnerOptions {
  kind: ProbeKind;
  probe: Frozen<Probe>;
  target: ProbeTarget;
  clock: Clock;
  /** Called when the result flips (after the thresholds), with the last failure's message. */
  onChange(kind: ProbeKind, success: boolean, message: string | undefined): void;
}

/**
 * One probe of one container instance, run every periodSeconds after initialDelaySeconds; the
 * result flips after successThreshold successes or failureThreshold failures in a row.
 * Readiness and startup start as failed, liveness as succeeded (kubelet's initial results).
 */
export class ProbeRunner {
  readonly kind: ProbeKind;
  readonly #options: ProbeRunnerOptions;
  #result: boolean;
  #successes = 0;
  #failures = 0;
  #cancel: (() => void) | undefined;
  #stopped = false;

  constructor(options: ProbeRunnerOptions) {
    this.kind = options.kind;
    this.#options = options;
    this.#result = options.kind === "liveness";
  }

  get result(): boolean {
    return this.#result;
  }

  start(): void {
    this.#schedule((this.#options.probe.initialDelaySeconds ?? 0) * 1000);
  }

  stop(): void {
    this.#stopped = true;
    this.#cancel?.();
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    this.#cancel = this.#options.clock.schedule(() => void this.#attempt(), delayMs);
  }

  async #attempt(): Promise<void> {
    const outcome = await runProbe(this.#options.probe, this.#options.target);
    if (this.#stopped) return;
    this.#record(outcome);
    // A startup probe stops once it succeeded; the others run as long as the container.
    if (this.kind === "startup" && this.#result) return;
    this.#schedule((this.#options.probe.periodSeconds ?? 10) * 1000);
  }

  #record(outcome: ProbeOutcome): void {
    const { probe } = this.#options;
    if (outcome.success) {
      this.#successes++;
      this.#failures = 0;
      if (!this.#result && this.#successes >= (probe.successThreshold ?? 1)) this.#flip(true, undefined);
    } else {
      this.#failures++;
      this.#successes = 0;
      if (
        this.#failures >= (probe.failureThreshold ?? 3) &&
        (this.#result || this.#failures === (probe.failureThreshold ?? 3))
      ) {
        this.#flip(false, outcome.message);
      }
    }
  }

  #flip(success: boolean, message: string | undefined): void {
    const changed = this.#result !== success;
    this.#result = success;
    // A liveness or startup failure is reported even without a change: the container gets killed.
    if (changed || !success) this.#options.onChange(this.kind, success, message);
  }
}
