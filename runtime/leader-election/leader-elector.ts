import type { Logger } from "pino";
import { isAlreadyExists, isConflict, isNotFound } from "../client/api-errors.js";
import type { ResourceClient } from "../client/resource-client.js";
import { type Clock, sleep, systemClock } from "../clock/clock.js";
import { microTime } from "../clock/wire-time.js";
import type { Lease } from "./lease.js";

export interface LeaderElectionConfig {
  namespace: string;
  /** The Lease's name, e.g. "virt-controller". */
  name: string;
  /** Who we are; unique per process (e.g. pod name + random suffix). */
  identity: string;
  /** How long a lease holds without renewal before others may take it (default 15 s; at least 1 s). */
  leaseDurationMs?: number;
  /** The leader gives up if it could not renew for this long (default 10 s; below leaseDurationMs). */
  renewDeadlineMs?: number;
  /** Pause between attempts to acquire or renew (default 2 s). */
  retryPeriodMs?: number;
}

export interface LeaderCallbacks {
  /**
   * We lead; `leading` aborts when we stop leading. The promise returned should settle once the
   * work that needs leadership has stopped: the lease is released only after that.
   */
  onStartedLeading(leading: AbortSignal): Promise<void> | void;
  /** We stopped leading: lost the lease, or released it on shutdown. */
  onStoppedLeading(): void;
  onNewLeader?(identity: string): void;
}

/**
 * Leader election on a coordination.k8s.io/v1 Lease, as client-go's leaderelection does it:
 * a candidate takes the lease when it is free or its holder has not renewed it for
 * `leaseDuration` (measured on our own clock from when we last saw it change, so clock skew
 * between machines does not matter); the leader renews every `retryPeriod` and steps down if it
 * cannot renew within `renewDeadline`. Writes carry the resourceVersion read, so two
 * candidates can never both win. On shutdown the leader releases the lease so a successor
 * need not wait for it to expire.
 */
export class LeaderElector {
  readonly #config: Required<LeaderElectionConfig>;
  readonly #leases: ResourceClient<Lease>;
  readonly #log: Logger;
  readonly #clock: Clock;
  #observed: { holder: string; renewTime: string; resourceVersion: string; durationMs: number } | undefined;
  #observedAt = 0;
  #leading = false;
  #lease: Lease | undefined;

  constructor(
    leases: ResourceClient<Lease>,
    config: LeaderElectionConfig,
    log: Logger,
    clock: Clock = systemClock,
  ) {
    this.#config = {
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
      ...config,
    };
    const { leaseDurationMs, renewDeadlineMs, retryPeriodMs } = this.#config;
    if (!(retryPeriodMs < renewDeadlineMs && renewDeadlineMs < leaseDurationMs && leaseDurationMs >= 1_000)) {
      throw new Error(
        `leader election needs retryPeriod < renewDeadline < leaseDuration (≥ 1 s); got ${retryPeriodMs}, ${renewDeadlineMs}, ${leaseDurationMs} ms`,
      );
    }
    this.#leases = leases;
    this.#log = log.child({ lease: `${config.namespace}/${config.name}`, identity: config.identity });
    this.#clock = clock;
  }

  isLeader(): boolean {
    return this.#leading;
  }

  /** Campaigns, leads, and returns when `signal` aborts (after releasing) or leadership is lost. */
  async run(signal: AbortSignal, callbacks: LeaderCallbacks): Promise<"lost" | "stopped"> {
    if (!(await this.#acquire(signal, callbacks))) return "stopped";
    const leading = new AbortController();
    this.#leading = true;
    this.#log.info("became the leader");
    const work = callbacks.onStartedLeading(leading.signal);
    const renewed = await this.#renewUntilLostOrStopped(signal);
    this.#leading = false;
    leading.abort();
    await work;
    if (renewed) {
      await this.#release();
    } else {
      this.#log.error("lost the lease: stopping what needs leadership");
    }
    callbacks.onStoppedLeading();
    return renewed ? "stopped" : "lost";
  }

  async #acquire(signal: AbortSignal, callbacks: LeaderCallbacks): Promise<boolean> {
    let lastLeader = "";
    while (!signal.aborted) {
      if (await this.#tryAcquireOrRenew()) return true;
      const holder = this.#observed?.holder ?? "";
      if (holder !== lastLeader && holder !== "") {
        lastLeader = holder;
        this.#log.info({ leader: holder }, "another candidate leads");
        callbacks.onNewLeader?.(holder);
      }
      await sleep(this.#clock, this.#config.retryPeriodMs * (1 + Math.random() * 0.2), signal);
    }
    return false;
  }

  /** True when stopped by the signal while still leading; false when a renewal deadline passed. */
  async #renewUntilLostOrStopped(signal: AbortSignal): Promise<boolean> {
    while (!signal.aborted) {
      await sleep(this.#clock, this.#config.retryPeriodMs, signal);
      if (signal.aborted) return true;
      const deadline = this.#clock.now() + this.#config.renewDeadlineMs;
      let renewed = false;
      while (!renewed && this.#clock.now() < deadline && !signal.aborted) {
        renewed = await this.#tryAcquireOrRenew();
        if (!renewed)
          await sleep(
            this.#clock,
            Math.min(this.#config.retryPeriodMs / 2, deadline - this.#clock.now()),
            signal,
          );
      }
      if (!renewed && !signal.aborted) return false;
    }
    return true;
  }

  async #tryAcquireOrRenew(): Promise<boolean> {
    const { namespace, name, identity } = this.#config;
    const now = this.#clock.now();
    let current: Lease;
    try {
      current = await this.#leases.get({ namespace, name }, { signal: this.#callTimeout() });
    } catch (error) {
      if (isNotFound(error)) return this.#create(now);
      this.#log.warn({ err: error }, "cannot read the lease");
      return false;
    }
    this.#observe(current, now);
    const holder = current.spec?.holderIdentity ?? "";
    const expired = this.#observedAt + (this.#observed?.durationMs ?? 0) <= now;
    if (holder !== "" && holder !== identity && !expired) return false;
    const ours = holder === identity;
    const spec = {
      holderIdentity: identity,
      leaseDurationSeconds: Math.ceil(this.#config.leaseDurationMs / 1000),
      renewTime: microTime(now),
      acquireTime: ours && current.spec?.acquireTime ? current.spec.acquireTime : microTime(now),
      leaseTransitions: (current.spec?.leaseTransitions ?? 0) + (ours ? 0 : 1),
    };
    return this.#write({ ...current, spec });
  }

  async #create(now: number): Promise<boolean> {
    const { namespace, name, identity } = this.#config;
    try {
      const created = await this.#leases.create(
        {
          metadata: { namespace, name },
          spec: {
            holderIdentity: identity,
            leaseDurationSeconds: Math.ceil(this.#config.leaseDurationMs / 1000),
            acquireTime: microTime(now),
            renewTime: microTime(now),
            leaseTransitions: 0,
          },
        },
        { signal: this.#callTimeout() },
      );
      this.#lease = created;
      this.#observe(created, now);
      return true;
    } catch (error) {
      if (!isAlreadyExists(error)) this.#log.warn({ err: error }, "cannot create the lease");
      return false;
    }
  }

  async #write(lease: Lease): Promise<boolean> {
    try {
      const written = await this.#leases.update(lease, { signal: this.#callTimeout() });
      this.#lease = written;
      this.#observe(written, this.#clock.now());
      return true;
    } catch (error) {
      // A conflict means someone else wrote first: they won this round.
      if (!isConflict(error)) this.#log.warn({ err: error }, "cannot update the lease");
      return false;
    }
  }

  /** A hung request must not outlive the renew deadline. */
  #callTimeout(): AbortSignal {
    return AbortSignal.timeout(this.#config.renewDeadlineMs);
  }

  #observe(lease: Lease, now: number): void {
    const seen = {
      holder: lease.spec?.holderIdentity ?? "",
      renewTime: lease.spec?.renewTime ?? "",
      resourceVersion: lease.metadata?.resourceVersion ?? "",
      durationMs: (lease.spec?.leaseDurationSeconds ?? 0) * 1000,
    };
    const previous = this.#observed;
    if (!previous || previous.holder !== seen.holder || previous.renewTime !== seen.renewTime) {
      this.#observedAt = now;
    }
    this.#observed = seen;
  }

  /** Gives the lease up at once (holder cleared, 1 s duration), if we still hold it. */
  async #release(): Promise<void> {
    const lease = this.#lease;
    if (!lease || lease.spec?.holderIdentity !== this.#config.identity) return;
    const now = microTime(this.#clock.now());
    const { holderIdentity: _released, ...rest } = lease.spec;
    try {
      await this.#leases.update(
        { ...lease, spec: { ...rest, leaseDurationSeconds: 1, renewTime: now, acquireTime: now } },
        { signal: this.#callTimeout() },
      );
      this.#log.info("released the lease");
    } catch (error) {
      this.#log.warn({ err: error }, "cannot release the lease: successors wait for it to expire");
    }
  }
}
