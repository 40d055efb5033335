// One exec or guestAgentPing probe's schedule and thresholds, as the kubelet keeps them for a
// container's probe (pure: the runner feeds it outcomes and the clock). KubeVirt's defaults: timeout
// 1 s (+1 s for virt-probe), period 10 s, success 1, failure 3, initial delay + LibvirtStartupDelay.
import type { Probe } from "../../api/index.js";
import type { Frozen } from "../../runtime/index.js";

/** KubeVirt adds this to an exec/guestAgentPing probe's initial delay (LibvirtStartupDelay). */
export const STARTUP_DELAY_SECONDS = 10;

export type AgentProbeKind = "exec" | "guestAgentPing";

/** The probe's kind when it runs in the guest through the agent; undefined for httpGet/tcpSocket. */
export function agentProbeKind(probe: Frozen<Probe> | undefined): AgentProbeKind | undefined {
  if (probe?.exec !== undefined) return "exec";
  if (probe?.guestAgentPing !== undefined) return "guestAgentPing";
  return undefined;
}

export interface ProbeOutcome {
  readonly success: boolean;
  readonly message?: string;
}

export class AgentProbeState {
  readonly #probe: Frozen<Probe>;
  #nextAtMs: number;
  #successes = 0;
  #failures = 0;
  /** Readiness starts false, liveness true (as the kubelet's). */
  #passing: boolean;
  #message: string | undefined;

  constructor(probe: Frozen<Probe>, startedAtMs: number, initiallyPassing: boolean) {
    this.#probe = probe;
    this.#nextAtMs = startedAtMs + ((probe.initialDelaySeconds ?? 0) + STARTUP_DELAY_SECONDS) * 1000;
    this.#passing = initiallyPassing;
  }

  get passing(): boolean {
    return this.#passing;
  }

  get message(): string | undefined {
    return this.#message;
  }

  /** How long one run may take: the probe's timeout plus virt-probe's extra second. */
  get timeoutMs(): number {
    return ((this.#probe.timeoutSeconds ?? 1) + 1) * 1000;
  }

  due(nowMs: number): boolean {
    return nowMs >= this.#nextAtMs;
  }

  /** Records one run; returns whether `passing` changed. */
  record(outcome: ProbeOutcome, nowMs: number): boolean {
    this.#nextAtMs = nowMs + (this.#probe.periodSeconds ?? 10) * 1000;
    const before = this.#passing;
    if (outcome.success) {
      this.#failures = 0;
      this.#successes += 1;
      if (this.#successes >= (this.#probe.successThreshold ?? 1)) this.#passing = true;
    } else {
      this.#successes = 0;
      this.#failures += 1;
      this.#message = outcome.message;
      if (this.#failures >= (this.#probe.failureThreshold ?? 3)) this.#passing = false;
    }
    if (this.#passing) this.#message = undefined;
    return before !== this.#passing;
  }
}
