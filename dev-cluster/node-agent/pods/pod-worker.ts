import { rmSync } from "node:fs";
import type { Logger } from "pino";
import { type Frozen, isConflict, isNotFound, StepTrace, sleep, wireTime } from "../../../runtime/index.js";
import { VolumeError } from "../containers/pod-volumes.js";
import { readTerminationMessage, terminationMessageFile } from "../containers/termination-message.js";
import type { CachedPod, Container, PodIdentity } from "../kinds.js";
import { containerLogPath, podLogDir } from "../logs/log-paths.js";
import {
  adoptContainerProcess,
  type ContainerProcess,
  type ProcessExit,
} from "../process/container-process.js";
import type { ContainerRecord, PodRecord } from "../state/pod-record.js";
import { backOffResetMs, restartDelayMs } from "./back-off.js";
import { exitFilePath, type LaunchedConfig, startContainer, startEvents } from "./container-starter.js";
import { containerViews, willRestart } from "./container-views.js";
import { newPodRecord } from "./new-pod-record.js";
import { PodSandbox } from "./pod-sandbox.js";
import { computePodStatus, containerRecord, podPhase } from "./pod-status.js";
import { PodStatusWriter } from "./pod-status-writer.js";
import { type RunningContainer, superviseContainer } from "./running-container.js";
import type { WorkerDeps } from "./worker-deps.js";

export interface SyncOutcome {
  requeueAfterMs?: number;
  /** The pod is gone and everything of it was removed: forget the worker. */
  finished?: boolean;
}

/** Pods deleted from the API without us (force deletion) get this long after SIGTERM. */
const goneGraceMs = 2000;

/**
 * Runs one pod on the local node, as kubelet's pod worker does: sets up its sandbox, starts
 * init containers one by one and then the containers, restarts them by the restart policy with
 * back-off, kills them gracefully when the pod is deleted, and reports the status. Every change
 * is saved to the pod's record at once, so a restarted agent carries on from it.
 */
export class PodWorker {
  readonly identity: PodIdentity;
  readonly key: string;
  readonly #deps: WorkerDeps;
  readonly #record: PodRecord;
  readonly #sandbox: PodSandbox;
  readonly #running = new Map<string, RunningContainer>();
  readonly #log: Logger;
  /** Containers this worker started, for the start trace's log line. */
  #startedContainers = 0;
  #pod: CachedPod;
  #volumeError: string | undefined;
  readonly #status: PodStatusWriter;

  private constructor(deps: WorkerDeps, record: PodRecord, pod: CachedPod) {
    this.identity = { uid: record.uid, namespace: record.namespace, name: record.name };
    this.key = `${record.namespace}/${record.name}`;
    this.#deps = deps;
    this.#record = record;
    this.#pod = pod;
    this.#log = deps.log.child({ pod: this.key, uid: record.uid });
    this.#sandbox = new PodSandbox(deps, this.identity, record);
    this.#status = new PodStatusWriter(deps.pods);
  }

  static create(deps: WorkerDeps, pod: CachedPod): PodWorker {
    const record = newPodRecord(pod, deps.clock.now());
    deps.store.save(record);
    return new PodWorker(deps, record, pod);
  }

  /** Takes over a pod of a previous run: its network and the processes still running. */
  static async adopt(deps: WorkerDeps, record: PodRecord, pod: CachedPod): Promise<PodWorker> {
    const worker = new PodWorker(deps, record, pod);
    const networkKept = await worker.#sandbox.adopt();
    for (const container of record.containers) {
      if (!container.process) continue;
      const process = adoptContainerProcess(
        {
          ...container.process,
          exitCodePath: exitFilePath(worker.#sandbox.podDir, container.name, container.restartCount),
        },
        deps.clock,
        deps.adoptedPollMs,
      );
      // Without its network the pod starts over: its processes go (kubelet recreates a lost sandbox).
      if (!networkKept) process.signal("SIGKILL");
      worker.#watch(container, process, undefined);
    }
    if (!networkKept) {
      record.network = undefined;
      record.networkRemoved = undefined;
      deps.store.save(record);
    }
    return worker;
  }

  get uid(): string {
    return this.identity.uid;
  }

  /** The container's current instance and whether it runs; undefined before its first start. */
  instance(container: string): { current: number; running: boolean } | undefined {
    const record = containerRecord(this.#record, container);
    if (!record?.containerID) return undefined;
    return { current: record.restartCount, running: this.#running.has(container) };
  }

  /** Process groups of the containers running now. */
  processGroups(): number[] {
    return [...this.#running.values()].map((running) => running.process.pid);
  }

  /** Brings the pod towards `pod` (undefined: it is gone from the API). */
  async sync(pod: CachedPod | undefined): Promise<SyncOutcome> {
    if (!pod) return this.#syncGone();
    this.#pod = pod;
    if (pod.metadata?.deletionTimestamp) return this.#syncDeletion(pod);
    const timers: number[] = [];
    // Where a pod's start spends its time (its sandbox, each container, the status write),
    // logged when a container started: the density benchmark reads it back.
    const trace = new StepTrace();
    const startedBefore = this.#startedContainers;
    if (!this.#isFinished(pod)) await this.#startWhatIsDue(pod, timers, trace);
    if (this.#isFinished(pod) && this.#running.size === 0 && this.#sandbox.network)
      await this.#sandbox.teardown();
    await trace.step("status", () => this.#writeStatus(pod, false));
    if (this.#startedContainers > startedBefore)
      this.#log.info({ startTrace: trace.record() }, "containers started");
    return timers.length > 0 ? { requeueAfterMs: Math.max(10, Math.min(...timers)) } : {};
  }

  /** The agent stops and leaves the pod running (a later agent adopts it). */
  release(): void {
    for (const running of this.#running.values()) running.release();
    this.#running.clear();
    this.#sandbox.release();
  }

  /** The agent stops and takes the pod's processes and network down with it (the pod object stays). */
  async shutDown(maxGraceMs: number): Promise<void> {
    const graceMs = Math.min(maxGraceMs, (this.#pod.spec?.terminationGracePeriodSeconds ?? 30) * 1000);
    const exits = [...this.#running.values()].map((running) => running.process.exited);
    for (const running of this.#running.values()) running.stop(graceMs);
    await Promise.race([Promise.all(exits), sleep(this.#deps.clock, graceMs)]);
    for (const running of this.#running.values()) running.enforceKill();
    await Promise.race([Promise.all(exits), sleep(this.#deps.clock, 2000)]);
    await this.#sandbox.teardown();
  }

  #isFinished(pod: CachedPod): boolean {
    const phase = podPhase({
      pod,
      record: this.#record,
      views: this.#views(pod, false),
      terminating: false,
      now: 0,
    });
    if (phase === "Succeeded" || phase === "Failed") return true;
    // A pod reported finished is never started again, even by an agent that lost its records.
    const reported = pod.status?.phase;
    return (reported === "Succeeded" || reported === "Failed") && this.#running.size === 0;
  }

  async #startWhatIsDue(pod: CachedPod, timers: number[], trace: StepTrace): Promise<void> {
    let network: Awaited<ReturnType<PodSandbox["ensure"]>>;
    try {
      network = await trace.step("sandbox", () => this.#sandbox.ensure(pod, this.#deps.sources));
      this.#volumeError = undefined;
    } catch (error) {
      if (!(error instanceof VolumeError)) throw error;
      if (this.#volumeError !== error.message) this.#event("Warning", "FailedMount", error.message);
      this.#volumeError = error.message;
      timers.push(2000);
      return;
    }
    for (const running of this.#running.values()) {
      const left = running.enforceKill();
      if (left !== undefined) timers.push(left);
    }
    for (const init of pod.spec?.initContainers ?? []) {
      if (this.#running.has(init.name)) return;
      const record = this.#containerRecord(init, true);
      if (record.terminated?.exitCode === 0) continue;
      await trace.step(`init ${init.name}`, () => this.#startIfDue(pod, init, record, true, network, timers));
      return;
    }
    for (const container of pod.spec?.containers ?? []) {
      if (this.#running.has(container.name)) continue;
      const record = this.#containerRecord(container, false);
      await trace.step(`container ${container.name}`, () =>
        this.#startIfDue(pod, container, record, false, network, timers),
      );
    }
  }

  async #startIfDue(
    pod: CachedPod,
    container: Frozen<Container>,
    record: ContainerRecord,
    isInit: boolean,
    network: NonNullable<PodSandbox["network"]>,
    timers: number[],
  ): Promise<void> {
    const now = this.#deps.clock.now();
    if (record.terminated && !willRestart(record, isInit, pod, false)) return;
    if (record.terminated && (record.restartAt ?? 0) > now) {
      timers.push((record.restartAt ?? 0) - now);
      return;
    }
    if (record.pull && record.pull.retryAt > now) {
      const showUntil =
        record.pull.failedAt + Math.min(1000, (record.pull.retryAt - record.pull.failedAt) / 2);
      timers.push(showUntil > now ? showUntil - now : record.pull.retryAt - now);
      return;
    }
    const outcome = await startContainer({
      deps: this.#deps,
      pod,
      identity: this.identity,
      container,
      record,
      sandbox: this.#sandbox,
      network,
    });
    this.#deps.store.save(this.#record);
    for (const event of startEvents(outcome, container, record)) this.#event(...event);
    switch (outcome.kind) {
      case "started":
        this.#startedContainers += 1;
        this.#watch(record, outcome.process, outcome.config);
        return;
      case "image-missing":
        timers.push(Math.min(1000, ((record.pull?.retryAt ?? now) - now) / 2));
        return;
      case "config-error":
        timers.push(this.#deps.restartBackOff.initialMs);
        return;
      case "start-error":
        this.#scheduleRestart(record, now);
        this.#deps.store.save(this.#record);
        timers.push(Math.max(0, (record.restartAt ?? now) - now));
        return;
    }
  }

  #watch(record: ContainerRecord, process: ContainerProcess, config: LaunchedConfig | undefined): void {
    const spec = [...(this.#pod.spec?.initContainers ?? []), ...(this.#pod.spec?.containers ?? [])].find(
      (container) => container.name === record.name,
    );
    const network = this.#sandbox.network;
    const running = superviseContainer({
      name: record.name,
      instance: record.restartCount,
      process,
      spec,
      probeTarget: network && {
        podIP: network.podIP,
        execPrefix: this.#deps.network.execPrefix(network),
        env: config?.env ?? { PATH: this.#deps.defaultPath },
        cwd: config?.cwd ?? this.#sandbox.podDir,
      },
      logPath: containerLogPath(this.#deps.logsRoot, this.identity, record.name, record.restartCount),
      clock: this.#deps.clock,
      onProbe: (current, kind, success, message) => this.#onProbe(current, kind, success, message),
    });
    this.#running.set(record.name, running);
    running.start();
    void process.exited.then((exit) => this.#onExit(running, exit));
  }

  #onProbe(running: RunningContainer, kind: string, success: boolean, message: string | undefined): void {
    if (this.#running.get(running.name) !== running) return;
    const label = `${kind[0]?.toUpperCase() ?? ""}${kind.slice(1)}`;
    if (!success) this.#event("Warning", "Unhealthy", `${label} probe failed: ${message ?? ""}`);
    if (success && kind === "startup") running.startedUp();
    if (!success && (kind === "liveness" || kind === "startup") && !running.stopping) {
      const spec = this.#pod.spec?.containers?.find((container) => container.name === running.name);
      const probe = kind === "liveness" ? spec?.livenessProbe : spec?.startupProbe;
      const graceSeconds =
        probe?.terminationGracePeriodSeconds ?? this.#pod.spec?.terminationGracePeriodSeconds ?? 30;
      this.#event("Normal", "Killing", `Container ${running.name} failed ${kind} probe, will be restarted`);
      running.stop(graceSeconds * 1000);
      this.#deps.enqueue(this.key, graceSeconds * 1000 + 10);
    }
    this.#deps.enqueue(this.key);
  }

  #onExit(running: RunningContainer, exit: ProcessExit): void {
    if (this.#running.get(running.name) !== running) return;
    running.ended();
    this.#running.delete(running.name);
    const record = containerRecord(this.#record, running.name);
    if (!record) return;
    record.process = undefined;
    const message =
      this.#terminationMessage(record, exit.exitCode) ??
      (exit.known ? undefined : "the process ended while no node agent ran: its exit status is unknown");
    record.terminated = {
      exitCode: exit.exitCode,
      reason: exit.exitCode === 0 ? "Completed" : "Error",
      ...(message === undefined ? {} : { message }),
      ...(record.startedAt ? { startedAt: record.startedAt } : {}),
      finishedAt: wireTime(exit.finishedAt),
      ...(record.containerID ? { containerID: record.containerID } : {}),
    };
    this.#scheduleRestart(record, exit.finishedAt);
    this.#deps.store.save(this.#record);
    this.#log.info(
      { container: record.name, exitCode: exit.exitCode, restartAt: record.restartAt },
      "container ended",
    );
    const terminating =
      Boolean(this.#pod.metadata?.deletionTimestamp) || this.#record.termination !== undefined;
    if (willRestart(record, record.init, this.#pod, terminating) && (record.backOffMs ?? 0) > 0) {
      this.#event(
        "Warning",
        "BackOff",
        `Back-off restarting failed container ${record.name} in pod ${this.identity.name}_${this.identity.namespace}(${this.uid})`,
      );
    }
    this.#deps.enqueue(this.key);
  }

  /** The instance's termination message file (or its log's tail), read once as it ends. */
  #terminationMessage(record: ContainerRecord, exitCode: number): string | undefined {
    const specs = [...(this.#pod.spec?.initContainers ?? []), ...(this.#pod.spec?.containers ?? [])];
    return readTerminationMessage({
      spec: specs.find((spec) => spec.name === record.name),
      file: terminationMessageFile(this.#sandbox.podDir, record.name),
      logPath: containerLogPath(this.#deps.logsRoot, this.identity, record.name, record.restartCount),
      exitCode,
    });
  }

  #scheduleRestart(record: ContainerRecord, finishedAt: number): void {
    const policy = this.#deps.restartBackOff;
    const startedAt = Date.parse(record.startedAt ?? "");
    if (Number.isFinite(startedAt) && finishedAt - startedAt >= backOffResetMs(policy))
      record.backoffSteps = 0;
    const delay = restartDelayMs(policy, record.backoffSteps);
    record.backoffSteps++;
    record.backOffMs = delay;
    record.restartAt = finishedAt + delay;
  }

  async #syncDeletion(pod: CachedPod): Promise<SyncOutcome> {
    const now = this.#deps.clock.now();
    if (!this.#record.termination) {
      const graceSeconds =
        pod.metadata?.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
      this.#record.termination = { startedAt: now, killAt: now + graceSeconds * 1000 };
      this.#deps.store.save(this.#record);
      for (const name of this.#running.keys()) this.#event("Normal", "Killing", `Stopping container ${name}`);
    }
    const waitMs = this.#stopAll(this.#record.termination.killAt - now);
    if (waitMs !== undefined) return { requeueAfterMs: waitMs };
    if (this.#sandbox.network) await this.#sandbox.teardown();
    await this.#writeStatus(pod, true);
    try {
      await this.#deps.pods.delete(
        { namespace: this.identity.namespace, name: this.identity.name },
        { gracePeriodSeconds: 0, preconditions: { uid: this.uid } },
      );
      this.#log.info("pod stopped and deleted");
    } catch (error) {
      if (!isNotFound(error) && !isConflict(error)) throw error;
    }
    return {};
  }

  async #syncGone(): Promise<SyncOutcome> {
    const now = this.#deps.clock.now();
    if (!this.#record.termination) {
      this.#record.termination = { startedAt: now, killAt: now + goneGraceMs };
      this.#deps.store.save(this.#record);
    }
    const waitMs = this.#stopAll(this.#record.termination.killAt - now);
    if (waitMs !== undefined) return { requeueAfterMs: waitMs };
    await this.#sandbox.teardown();
    this.#deps.store.remove(this.uid);
    rmSync(podLogDir(this.#deps.logsRoot, this.identity), { recursive: true, force: true });
    this.#log.info("pod removed from the node");
    return { finished: true };
  }

  /** SIGTERM to all, SIGKILL once `graceLeftMs` is over; the ms to look again while any run. */
  #stopAll(graceLeftMs: number): number | undefined {
    if (this.#running.size === 0) return undefined;
    let next = 1000;
    for (const running of this.#running.values()) {
      running.stop(graceLeftMs);
      const left = running.enforceKill();
      if (left !== undefined) next = Math.min(next, left);
    }
    return Math.max(20, next);
  }

  #views(pod: CachedPod, terminating: boolean) {
    return containerViews({
      pod,
      record: this.#record,
      running: this.#running,
      volumeError: this.#volumeError,
      terminating,
      now: this.#deps.clock.now(),
    });
  }

  #writeStatus(pod: CachedPod, terminating: boolean): Promise<void> {
    const views = this.#views(pod, terminating);
    const now = this.#deps.clock.now();
    return this.#status.write(pod, (current) =>
      computePodStatus({ pod: current, record: this.#record, views, terminating, now }),
    );
  }

  #containerRecord(container: Frozen<Container>, init: boolean): ContainerRecord {
    let record = containerRecord(this.#record, container.name);
    if (!record) {
      record = { name: container.name, init, image: container.image ?? "", restartCount: 0, backoffSteps: 0 };
      this.#record.containers.push(record);
    }
    return record;
  }

  #event(type: "Normal" | "Warning", reason: string, message: string): void {
    const { metadata } = this.#pod;
    this.#deps.events.record(
      { apiVersion: "v1", kind: "Pod", metadata: metadata ?? {} },
      type,
      reason,
      message,
    );
  }
}
