import type { Clock, Frozen } from "../../../runtime/index.js";
import type { Container } from "../kinds.js";
import { LogStamper } from "../logs/log-stamps.js";
import type { ProbeTarget } from "../probes/probe-action.js";
import type { ProbeKind, ProbeRunner } from "../probes/probe-runner.js";
import type { ContainerProcess } from "../process/container-process.js";
import { containerProbes } from "./container-probes.js";

export interface SuperviseOptions {
  name: string;
  instance: number;
  process: ContainerProcess;
  /** The container's spec (its probes); undefined runs no probes. */
  spec: Frozen<Container> | undefined;
  /** Where probes go; undefined (no network) runs no probes. */
  probeTarget: Omit<ProbeTarget, "container"> | undefined;
  logPath: string;
  clock: Clock;
  onProbe(running: RunningContainer, kind: ProbeKind, success: boolean, message: string | undefined): void;
}

/** Wraps a container process with its probes and log stamper (not started yet). */
export function superviseContainer(options: SuperviseOptions): RunningContainer {
  const { spec, probeTarget } = options;
  let running: RunningContainer | undefined;
  const probes =
    spec && probeTarget
      ? containerProbes({
          container: spec,
          target: { ...probeTarget, container: spec },
          clock: options.clock,
          onChange: (kind, success, message) => {
            if (running) options.onProbe(running, kind, success, message);
          },
        })
      : [];
  running = new RunningContainer({
    name: options.name,
    instance: options.instance,
    process: options.process,
    probes,
    stamper: new LogStamper(options.logPath, options.clock),
    clock: options.clock,
  });
  return running;
}

/**
 * One live container instance: its process, its probes and its log stamper. Killing is
 * two-step (SIGTERM, then SIGKILL once the grace period is over), driven by the pod worker.
 */
export class RunningContainer {
  readonly name: string;
  readonly instance: number;
  readonly process: ContainerProcess;
  readonly #probes: ProbeRunner[];
  readonly #stamper: LogStamper;
  readonly #clock: Clock;
  #killAt: number | undefined;
  #killed = false;

  constructor(options: {
    name: string;
    instance: number;
    process: ContainerProcess;
    probes: ProbeRunner[];
    stamper: LogStamper;
    clock: Clock;
  }) {
    this.name = options.name;
    this.instance = options.instance;
    this.process = options.process;
    this.#probes = options.probes;
    this.#stamper = options.stamper;
    this.#clock = options.clock;
  }

  /** Starts stamping and probing; readiness and liveness wait for the startup probe, as kubelet's do. */
  start(): void {
    this.#stamper.start();
    const startup = this.#probes.find((probe) => probe.kind === "startup");
    if (startup) startup.start();
    else this.startedUp();
  }

  /** The startup probe succeeded: readiness and liveness probes begin. */
  startedUp(): void {
    if (this.#killAt !== undefined) return;
    for (const probe of this.#probes) if (probe.kind !== "startup") probe.start();
  }

  /** Started: its startup probe passed (or it has none). */
  get started(): boolean {
    return this.#probes.find((probe) => probe.kind === "startup")?.result ?? true;
  }

  /** Ready: started and its readiness probe passes (or it has none). */
  get ready(): boolean {
    if (!this.started) return false;
    return this.#probes.find((probe) => probe.kind === "readiness")?.result ?? true;
  }

  get stopping(): boolean {
    return this.#killAt !== undefined;
  }

  /** Asks the container to stop (SIGTERM) once; SIGKILL follows `graceMs` later (see enforceKill). */
  stop(graceMs: number): void {
    if (this.#killAt !== undefined) return;
    this.#stopProbes();
    this.#killAt = this.#clock.now() + graceMs;
    this.process.signal(graceMs <= 0 ? "SIGKILL" : "SIGTERM");
  }

  /** Sends SIGKILL when the grace period is over; returns the ms left, if any. */
  enforceKill(): number | undefined {
    if (this.#killAt === undefined || this.#killed) return undefined;
    const left = this.#killAt - this.#clock.now();
    if (left > 0) return left;
    this.#killed = true;
    this.process.signal("SIGKILL");
    return undefined;
  }

  /** The process ended: stop watching it. */
  ended(): void {
    this.#stopProbes();
    this.#stamper.stop();
  }

  /** The agent stops: stop watching, leave the process running. */
  release(): void {
    this.#stopProbes();
    this.#stamper.stop();
    this.process.release();
  }

  #stopProbes(): void {
    for (const probe of this.#probes) probe.stop();
  }
}
