import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import { hostname } from "node:os";
import type { KubeConfig } from "@kubernetes/client-node";
import type { Logger } from "pino";
import { Registry } from "prom-client";
import { KubeClient } from "../client/kube-client.js";
import type { BackoffOptions } from "../clock/backoff.js";
import { type Clock, systemClock } from "../clock/clock.js";
import { Controller, type ControllerOptions } from "../controller/controller.js";
import { eventKind } from "../events/event.js";
import { EventRecorder } from "../events/event-recorder.js";
import { stripManagedFields } from "../informer/indexed-store.js";
import { InformerCache, type InformerRequest } from "../informer/informer-cache.js";
import type { SharedInformer } from "../informer/shared-informer.js";
import { type LeaderElectionConfig, LeaderElector } from "../leader-election/leader-elector.js";
import { leaseKind } from "../leader-election/lease.js";
import { RuntimeMetrics } from "../metrics/runtime-metrics.js";
import type { KubeObject } from "../objects/kube-object.js";
import { kindId, type ResourceKind } from "../objects/resource-kind.js";
import { SecretTlsSource } from "../tls/secret-tls-source.js";
import { withTlsSecret } from "../tls/with-tls-secret.js";
import { startHealthServer } from "./health-server.js";
import { MetricsServer } from "./metrics-server.js";
import type { Runnable } from "./runnable.js";

export interface ManagerOptions {
  /** The component's name: field manager of writes, event source, metrics and log context. */
  name: string;
  kubeConfig: KubeConfig;
  log: Logger;
  /** Default: a new registry of the manager's own (never prom-client's global one). */
  registry?: Registry;
  /** Cache only this namespace (default all). */
  namespace?: string;
  /** Run controllers only while holding this lease; undefined runs them at once. */
  leaderElection?: Omit<LeaderElectionConfig, "identity"> & { identity?: string };
  /** Serve /healthz and /readyz here, plain HTTP for kubelet probes; undefined serves neither. */
  health?: { host: string; port: number };
  /**
   * Serve /metrics here, over HTTPS only, with the certificate of `secret` (kubernetes.io/tls
   * keys), followed live: it listens once the Secret exists and takes a rotation without a
   * restart. Health and readiness never wait for it. Undefined serves no metrics.
   */
  metrics?: { host: string; port: number; secret: { namespace: string; name: string } };
  /** How long stop() waits for in-flight reconciles (default 30 s). */
  gracefulShutdownMs?: number;
  informerBackoff?: BackoffOptions;
  /** Keep metadata.managedFields in cached objects (default: stripped, to save memory). */
  cacheManagedFields?: boolean;
  clock?: Clock;
}

export type ManagerExit =
  | { reason: "stopped" }
  | { reason: "leadership-lost" }
  | { reason: "failed"; error: unknown };

/**
 * The composition root of a component (controller-runtime's manager): it owns the client, the
 * shared informer cache, the metrics registry and the event recorder, runs controllers (on the
 * leader only, when leader election is on, and after caches sync), serves health (plain HTTP)
 * and metrics (HTTPS), and stops everything in order. Losing the lease stops the manager:
 * `done` resolves with "leadership-lost" and the process should exit so it restarts as a fresh
 * candidate.
 */
export class Manager {
  readonly client: KubeClient;
  readonly cache: InformerCache;
  readonly registry: Registry;
  readonly metrics: RuntimeMetrics;
  readonly log: Logger;
  readonly #options: ManagerOptions;
  readonly #clock: Clock;
  readonly #runnables: Runnable[] = [];
  readonly #running: Promise<void>[] = [];
  readonly #stopAll = new AbortController();
  readonly #recorder: EventRecorder;
  #elector: LeaderElector | undefined;
  #health: { url: string; close(): Promise<void> } | undefined;
  readonly #metricsServer: MetricsServer | undefined;
  #started = false;
  #stopping: Promise<void> | undefined;
  #resolveDone: (exit: ManagerExit) => void = () => {};
  /** Resolves once the manager has stopped, saying why. */
  readonly done: Promise<ManagerExit>;

  constructor(options: ManagerOptions) {
    // Every controller and informer listens on this one signal for as long as the manager runs:
    // many listeners are expected here, not a leak.
    setMaxListeners(0, this.#stopAll.signal);
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.log = options.log.child({ component: options.name });
    this.registry = options.registry ?? new Registry();
    this.metrics = new RuntimeMetrics(this.registry);
    this.client = KubeClient.fromKubeConfig(options.kubeConfig, {
      fieldManager: options.name,
      userAgent: options.name,
    });
    this.cache = new InformerCache({
      client: this.client,
      log: this.log,
      clock: this.#clock,
      ...(options.namespace ? { namespace: options.namespace } : {}),
      ...(options.informerBackoff ? { backoff: options.informerBackoff } : {}),
      metricsFor: (kind) => this.metrics.forInformer(kindId(kind)),
      ...(options.cacheManagedFields ? {} : { transform: stripManagedFields }),
    });
    this.#recorder = new EventRecorder({
      events: this.client.resource(eventKind),
      component: options.name,
      host: options.leaderElection?.identity ?? hostname(),
      log: this.log,
      clock: this.#clock,
    });
    if (options.leaderElection) this.metrics.leaderStatus(options.name, false);
    this.#metricsServer = options.metrics && this.#metricsRunnable(options.metrics);
    this.done = new Promise((resolve) => {
      this.#resolveDone = resolve;
    });
  }

  /** The shared informer of `kind` (created on first use). */
  informer<T extends KubeObject>(kind: ResourceKind<T>, request?: InformerRequest<T>): SharedInformer<T> {
    return this.cache.informerFor(kind, request);
  }

  get events(): EventRecorder {
    return this.#recorder;
  }

  /** Creates a controller wired to the manager's logger, metrics and clock, and runs it with the manager. */
  controller(options: Omit<ControllerOptions, "log" | "metrics" | "queueMetrics" | "clock">): Controller {
    const controller = new Controller({
      ...options,
      log: this.log,
      clock: this.#clock,
      metrics: this.metrics.forController(options.name, options.workers ?? 1),
      queueMetrics: this.metrics.forQueue(options.name),
    });
    this.add(controller);
    return controller;
  }

  add(runnable: Runnable): void {
    if (this.#started) throw new Error(`cannot add ${runnable.name}: the manager already started`);
    this.#runnables.push(runnable);
  }

  isLeader(): boolean {
    return this.#options.leaderElection ? (this.#elector?.isLeader() ?? false) : true;
  }

  /** The health server's base URL (plain HTTP), once started. */
  get healthUrl(): string | undefined {
    return this.#health?.url;
  }

  /** The metrics server's base URL (HTTPS), while it listens: once its certificate exists. */
  get metricsUrl(): string | undefined {
    return this.#metricsServer?.url;
  }

  /** Starts caches, the health server, leader election and the runnables; returns once they are started. */
  async start(): Promise<void> {
    if (this.#started) throw new Error("the manager was already started");
    this.#started = true;
    this.cache.start();
    if (this.#options.health) {
      this.#health = await startHealthServer({
        ...this.#options.health,
        alive: () => !this.#stopAll.signal.aborted,
        ready: () => this.#readiness(),
      });
    }
    void this.#startRunnables((runnable) => !runnable.needsLeaderElection, this.#stopAll.signal);
    const election = this.#options.leaderElection;
    if (!election) {
      void this.#startRunnables((runnable) => runnable.needsLeaderElection, this.#stopAll.signal);
      this.log.info("started");
      return;
    }
    this.#elector = new LeaderElector(
      this.client.resource(leaseKind),
      { ...election, identity: election.identity ?? `${hostname()}_${randomUUID()}` },
      this.log,
      this.#clock,
    );
    this.#running.push(this.#lead(this.#elector));
    this.log.info("started");
  }

  /**
   * Stops in order: runnables (in-flight reconciles finish), then the lease is released, then
   * caches, pending events and the health server.
   */
  stop(): Promise<void> {
    this.#stopping ??= this.#shutDown({ reason: "stopped" });
    return this.#stopping;
  }

  async #lead(elector: LeaderElector): Promise<void> {
    const outcome = await elector.run(this.#stopAll.signal, {
      onStartedLeading: (leading) => {
        this.metrics.leaderStatus(this.#options.name, true);
        return this.#startRunnables((runnable) => runnable.needsLeaderElection, leading);
      },
      onStoppedLeading: () => this.metrics.leaderStatus(this.#options.name, false),
    });
    if (outcome === "lost") this.#stopping ??= this.#shutDown({ reason: "leadership-lost" });
  }

  /** Runs the selected runnables until `signal` (or the manager) stops; resolves when they all returned. */
  #startRunnables(select: (runnable: Runnable) => boolean, signal: AbortSignal): Promise<void> {
    const combined = AbortSignal.any([signal, this.#stopAll.signal]);
    setMaxListeners(0, combined);
    const started = this.#runnables.filter(select).map((runnable) =>
      runnable.run(combined).catch((error: unknown) => {
        this.log.error({ err: error, runnable: runnable.name }, "a runnable failed: stopping the manager");
        this.#stopping ??= this.#shutDown({ reason: "failed", error });
      }),
    );
    this.#running.push(...started);
    return Promise.all(started).then(() => {});
  }

  async #shutDown(exit: ManagerExit): Promise<void> {
    this.log.info({ reason: exit.reason }, "stopping");
    this.#stopAll.abort();
    const grace = this.#options.gracefulShutdownMs ?? 30_000;
    const settled = Promise.all(this.#running).then(() => true);
    const timedOut = new Promise<false>((resolve) => {
      const cancel = this.#clock.schedule(() => resolve(false), grace);
      void settled.then(cancel);
    });
    if (!(await Promise.race([settled, timedOut])))
      this.log.warn({ graceMs: grace }, "runnables did not stop in time");
    await this.cache.stop();
    await this.#recorder.flush();
    await this.#health?.close();
    this.client.close();
    this.log.info({ reason: exit.reason }, "stopped");
    this.#resolveDone(exit);
  }

  /**
   * The metrics server, run with the manager like any runnable (on every replica, leader or
   * not). Its Secret's watch is its own, not in the cache: readiness never waits for a
   * certificate, nor fails for want of RBAC on Secrets.
   */
  #metricsRunnable({ host, port, secret }: NonNullable<ManagerOptions["metrics"]>): MetricsServer {
    const tls = new SecretTlsSource(this.client, { ...secret, log: this.log });
    const server = new MetricsServer({
      ...{ host, port, tls, registry: this.registry, log: this.log, clock: this.#clock },
      tlsOrigin: `${secret.namespace}/${secret.name}`,
    });
    this.#runnables.push(withTlsSecret(server, tls));
    return server;
  }

  #readiness(): { ready: boolean; detail: string } {
    const pending = this.cache
      .informers()
      .filter((informer) => !informer.hasSynced())
      .map((informer) => informer.kind.plural);
    return pending.length === 0
      ? { ready: true, detail: "ok" }
      : { ready: false, detail: `caches not synced: ${pending.join(", ")}` };
  }
}
