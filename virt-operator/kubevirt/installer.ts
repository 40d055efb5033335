import type { Logger } from "pino";
import type { EventRecorder, Frozen, KubeClient } from "../../runtime/index.js";
import { CommonInstancetypesSync } from "../common-instancetypes/common-instancetypes-sync.js";
import type { KubeVirt } from "../kinds.js";
import { type InstallStrategy, OPERATOR_FIELD_MANAGER } from "../strategy/install-strategy.js";
import type { InstallObservation } from "./install-status.js";
import { isSubsetOf } from "./is-subset-of.js";
import { type InstalledObject, ManagedKindTable } from "./managed-kinds.js";
import { describeObject, type ManagedObjects } from "./managed-objects.js";
import { type ApplyReason, applyReason, isInstalledByOperator } from "./object-drift.js";
import { describeEntry, isCrd, type StrategyEntry } from "./strategy-entries.js";
import { type Readiness, readinessOf } from "./workload-readiness.js";

export interface InstallResult {
  observation: InstallObservation;
  /** A write that failed; the status says so, and the reconcile retries with backoff. */
  error?: unknown;
}

/** One install pass: what it installs for, and what it wrote so far (the cache may not show it yet). */
interface InstallPass {
  kubevirt: Frozen<KubeVirt>;
  strategy: InstallStrategy;
  entries: readonly StrategyEntry[];
  written: Map<string, Frozen<InstalledObject>>;
  log: Logger;
  signal: AbortSignal;
}

/** What the operator's last apply of one object left behind. */
interface AppliedMemo {
  resourceVersion: string | undefined;
  strategyId: string;
  /** The server kept everything we sent; false when it normalised or dropped part of it. */
  converged: boolean;
}

const EVENT_OF: Record<ApplyReason, { reason: string; verb: string }> = {
  missing: { reason: "SuccessfulCreate", verb: "Created" },
  outdated: { reason: "SuccessfulUpdate", verb: "Updated" },
  drifted: { reason: "Restored", verb: "Restored" },
};

/**
 * Applies a strategy with server-side apply (field manager virt-operator, force; a kind that
 * cannot be applied everywhere is created and replaced instead, managed-kinds.ts), writing only
 * what is missing, from another strategy, or changed by hand: CRDs first, the rest only once they
 * are Established; then deletes what the operator installed that the strategy no longer holds;
 * then, once everything is available, keeps the common instancetypes and preferences
 * (common-instancetypes/common-instancetypes-sync.ts).
 */
export class Installer {
  readonly #objects: ManagedObjects;
  readonly #client: KubeClient;
  readonly #events: EventRecorder;
  /**
   * The last apply per object. An object the server does not keep exactly as sent (a quantity
   * it normalises, a list another manager extends) is not re-applied while it stays at the
   * version that apply produced: a steady state makes no writes even then.
   */
  readonly #applied = new Map<string, AppliedMemo>();
  readonly #commonSet: CommonInstancetypesSync;

  constructor(objects: ManagedObjects, client: KubeClient, events: EventRecorder) {
    this.#objects = objects;
    this.#client = client;
    this.#events = events;
    this.#commonSet = new CommonInstancetypesSync(client, events);
  }

  async install(
    kubevirt: Frozen<KubeVirt>,
    strategy: InstallStrategy,
    entries: readonly StrategyEntry[],
    log: Logger,
    signal: AbortSignal,
  ): Promise<InstallResult> {
    const pass: InstallPass = { kubevirt, strategy, entries, written: new Map(), log, signal };
    const crds = entries.filter(isCrd);
    try {
      for (const entry of crds) await this.#applyIfNeeded(pass, entry);
      const pending = crds.filter((entry) => !isEstablished(this.#current(pass, entry)));
      if (pending.length > 0)
        return {
          observation: this.#observe(
            pass,
            pending.map((entry) => entry.desired.metadata.name),
          ),
        };
      for (const entry of entries.filter((entry) => !isCrd(entry))) await this.#applyIfNeeded(pass, entry);
      await this.#deleteObsolete(pass);
      // The common set waits for a complete install: its objects go through virt-api's webhooks.
      const { commonInstancetypes } = strategy;
      if (commonInstancetypes !== undefined && isComplete(this.#observe(pass, [])))
        await this.#commonSet.sync({ kubevirt, strategy, desired: commonInstancetypes, log, signal });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.#events.warning(kubevirt, "ApplyFailed", message);
      return { observation: this.#observe(pass, [], { reason: "ApplyFailed", message }), error };
    }
    return { observation: this.#observe(pass, []) };
  }

  #current(pass: InstallPass, entry: StrategyEntry): Frozen<InstalledObject> | undefined {
    return pass.written.get(entry.identity) ?? this.#objects.get(entry.kind, entry.desired);
  }

  async #applyIfNeeded(pass: InstallPass, entry: StrategyEntry): Promise<void> {
    const { strategy } = pass;
    const live = this.#current(pass, entry);
    // An object being deleted is gone for the install: applying would only update what is about
    // to disappear (and its old replicas would read as available). Its delete event brings the
    // CR back, and the next pass creates it anew.
    if (live?.metadata?.deletionTimestamp) return;
    const reason = applyReason(entry.desired, live, strategy.id);
    if (!reason) return;
    const memo = this.#applied.get(entry.identity);
    const leftUnconverged =
      live !== undefined &&
      memo?.converged === false &&
      memo.strategyId === strategy.id &&
      memo.resourceVersion === live.metadata?.resourceVersion;
    if (leftUnconverged) return;
    const result = await this.#apply(pass, entry);
    const { apiVersion: _apiVersion, kind: _kind, ...fields } = entry.desired;
    const converged = isSubsetOf(fields, result);
    const stored = result.metadata?.resourceVersion;
    this.#applied.set(entry.identity, { resourceVersion: stored, strategyId: strategy.id, converged });
    if (!converged)
      pass.log.warn(
        { object: describeEntry(entry) },
        "the server does not keep the object as applied: it is left as it is until it changes",
      );
    // The version the cache or our last apply already showed: the server found nothing to change.
    if (stored === live?.metadata?.resourceVersion || stored === memo?.resourceVersion) return;
    const { reason: eventReason, verb } = EVENT_OF[reason];
    pass.log.info({ object: describeEntry(entry), why: reason }, `${verb.toLowerCase()} a managed object`);
    this.#events.normal(pass.kubevirt, eventReason, `${verb} ${describeEntry(entry)} (${strategy.version})`);
  }

  async #apply(pass: InstallPass, entry: StrategyEntry): Promise<Frozen<InstalledObject>> {
    try {
      const resource = this.#client.resource(entry.kind.resource);
      const options = { fieldManager: OPERATOR_FIELD_MANAGER, signal: pass.signal };
      const live = this.#current(pass, entry);
      const result =
        entry.kind.write === "apply"
          ? await resource.apply(entry.desired, { ...options, force: true })
          : live === undefined
            ? await resource.create(entry.desired, options)
            : // At the version seen: a write in between is a conflict, and the next pass retries.
              await resource.update(
                {
                  ...entry.desired,
                  metadata: { ...entry.desired.metadata, resourceVersion: live.metadata?.resourceVersion },
                },
                options,
              );
      pass.written.set(entry.identity, result as Frozen<InstalledObject>);
      return result as Frozen<InstalledObject>;
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new Error(`cannot apply ${describeEntry(entry)}: ${why}`, { cause: error });
    }
  }

  /**
   * Deletes what the operator installed from a strategy that the strategy no longer holds (e.g.
   * after an update). The certificate Secrets are no strategy's: the certificate step keeps them.
   */
  async #deleteObsolete(pass: InstallPass): Promise<void> {
    const wanted = new Set(pass.entries.map((entry) => entry.identity));
    for (const live of this.#objects.installed()) {
      if (!isInstalledByOperator(live.object)) continue;
      const identity = ManagedKindTable.identity(live.kind, live.object);
      if (wanted.has(identity) || live.object.metadata?.deletionTimestamp) continue;
      if (!(await this.#objects.delete(live, pass.signal))) continue;
      this.#applied.delete(identity);
      pass.log.info({ object: describeObject(live) }, "deleted an object the strategy no longer holds");
      this.#events.normal(
        pass.kubevirt,
        "SuccessfulDelete",
        `Deleted ${describeObject(live)}: no longer part of the install`,
      );
    }
  }

  /** What exists of the strategy after the pass, and how its workloads are doing. */
  #observe(
    pass: InstallPass,
    crdsPending: string[],
    failure?: { reason: string; message: string },
  ): InstallObservation {
    const missing: string[] = [];
    const workloads: Readiness[] = [];
    for (const entry of pass.entries) {
      const current = this.#current(pass, entry);
      const live = current?.metadata?.deletionTimestamp ? undefined : current;
      if (!live) missing.push(describeEntry(entry));
      const readiness = live && readinessOf(entry.kind.resource.kind, live);
      if (readiness) workloads.push(readiness);
    }
    return { strategy: pass.strategy, crdsPending, missing, workloads, ...(failure ? { failure } : {}) };
  }
}

/** Everything of the strategy exists and every workload is available. */
function isComplete(observation: InstallObservation): boolean {
  return observation.missing.length === 0 && observation.workloads.every((workload) => workload.available);
}

function isEstablished(crd: Frozen<InstalledObject> | undefined): boolean {
  const status = crd?.status as Frozen<{ conditions?: { type: string; status: string }[] }> | undefined;
  return (
    status?.conditions?.some(
      (condition) => condition.type === "Established" && condition.status === "True",
    ) ?? false
  );
}
