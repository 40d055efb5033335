// The VMI reconciler of virt-handler (wired in vmi-controller.ts): for one VMI key it reads the VMI (cache), its domain
// (libvirt) and its launcher pod, decides (vmi-decision.ts), acts on libvirt, and writes the VMI
// at most once. Domains of VMIs that are gone are removed here too, so that a domain event or a
// startup scan of libvirt is enough to clean up after a VMI deleted while nobody watched.
import type { Logger } from "pino";
import { isHotpluggableVolume } from "../../api/index.js";
import { type Connection, DomainState } from "../../libvirt/index.js";
import {
  CACHE_IS_BEHIND,
  type Clock,
  type EventRecorder,
  type Frozen,
  NotFoundError,
  OwnWrites,
  type ReconcileRequest,
  type ReconcileResult,
  type ResourceClient,
  type SharedInformer,
} from "../../runtime/index.js";
import type { DomainLifecycle } from "../domain/domain-lifecycle.js";
import { type DomainFacts, type ObservedDomain, readObservedDomain } from "../domain/observed-domain.js";
import { type VmiDomainFactory, VmiImagePullError, VmiStartError } from "../domain/vmi-domain-factory.js";
import type { GuestAgentReports } from "../guest-agent/agent-facts.js";
import type { Vmi } from "../kinds.js";
import { ImagePullBackoff } from "./image-pull-backoff.js";
import { pullBackoffStatus, pullFailedStatus } from "./image-pull-status.js";
import { type LauncherLookup, launcherPodIPs, launcherReadiness, launcherState } from "./launcher-pod.js";
import { cannotStart, type Decision, decide, type RunPermission } from "./vmi-decision.js";

export interface VmiReconcilerDeps {
  readonly nodeName: string;
  /** VMIs of this node (label kubevirt.io/nodeName). */
  readonly vmis: SharedInformer<Vmi>;
  readonly vmiClient: ResourceClient<Vmi>;
  readonly launcher: LauncherLookup;
  readonly connection: Connection;
  readonly factory: VmiDomainFactory;
  readonly lifecycle: DomainLifecycle;
  /**
   * Whether (and how) this VMI may start now: KVM, or emulation when the configuration allows it;
   * never while it uses a field whose feature gate is off.
   */
  readonly permission: (vmi: Frozen<Vmi>) => RunPermission;
  /** The VMI with KubeVirt's defaults for the current cluster configuration. */
  readonly withDefaults: (vmi: Frozen<Vmi>) => Vmi;
  readonly events: EventRecorder;
  readonly clock: Clock;
  /** What the guest agents last reported (guest-agent/); none: no OS info or agent addresses. */
  readonly guestAgent?: GuestAgentReports;
  /** Back-off between pulls of a VMI's images (the kubelet's delays unless given). */
  readonly pullBackoff?: ImagePullBackoff;
}

/** What one step of a reconcile leads to: look again (libvirt changed), or stop here. */
type StepResult = { readonly again: true } | { readonly again: false; readonly result: ReconcileResult };

const AGAIN: StepResult = { again: true };
const DONE: StepResult = { again: false, result: {} };
/** How soon a hotplugged disk whose attachment pod is not ready yet is looked at again. */
const HOTPLUG_RETRY_MS = 2000;

/**
 * Hotplug not finished yet: a hotpluggable volume of the spec that the live domain lacks, or a live
 * disk whose volume left the spec (the guest may take a while to release it).
 */
function hotplugPending(vmi: Frozen<Vmi>, observed: ObservedDomain): boolean {
  const live = observed.facts.disks ?? new Map<string, string>();
  const disks = new Set((vmi.spec.domain.devices.disks ?? []).map((disk) => disk.name));
  const volumes = vmi.spec.volumes ?? [];
  const specNames = new Set(volumes.map((volume) => volume.name));
  return (
    volumes.some(
      (volume) => isHotpluggableVolume(volume) && disks.has(volume.name) && !live.has(volume.name),
    ) || [...live.keys()].some((name) => !specNames.has(name))
  );
}

/** Define + start, then write: one reconcile never needs more steps than this. */
const MAX_STEPS = 4;

export class VmiReconciler {
  readonly #deps: VmiReconcilerDeps;
  /** When an ACPI shutdown was asked for, by VMI uid (lost on restart: the grace period starts again). */
  readonly #shutdowns = new Map<string, number>();
  readonly #writes = new OwnWrites();
  readonly #pullBackoff: ImagePullBackoff;

  constructor(deps: VmiReconcilerDeps) {
    this.#deps = deps;
    this.#pullBackoff = deps.pullBackoff ?? new ImagePullBackoff();
  }

  async reconcile(request: ReconcileRequest): Promise<ReconcileResult> {
    const { key, log } = request;
    const vmi = this.#deps.vmis.get(key);
    if (vmi !== undefined && this.#writes.cacheIsBehind(key, vmi.metadata?.resourceVersion)) {
      return CACHE_IS_BEHIND;
    }
    const domainName = this.#deps.factory.domainName({
      metadata: { name: request.name, ...(request.namespace ? { namespace: request.namespace } : {}) },
    });
    const held: { observed: ObservedDomain | undefined } = { observed: await this.#observe(domainName) };
    let hotplugRetry: ReconcileResult | undefined;
    try {
      const stale = held.observed;
      if (stale !== undefined && stale.identity?.uid !== vmi?.metadata?.uid) {
        if (await this.#vmiStillExists(stale, vmi)) return { requeueAfterMs: 5_000 };
        await this.#deps.lifecycle.remove(stale, log);
        this.#shutdowns.delete(stale.identity?.uid ?? "");
        held.observed = undefined;
        stale.handle.free();
      }
      if (vmi === undefined) {
        this.#writes.forget(key);
        return {};
      }
      if (vmi.status?.nodeName !== this.#deps.nodeName) return {};
      // A VM that runs keeps its pod network: a start cut short (virt-handler killed right after
      // it) left the tap on the node or the launcher without its DHCP answer.
      const facts = held.observed?.facts;
      if (facts !== undefined && facts.state !== DomainState.Shutoff && facts.state !== DomainState.Crashed) {
        await this.#deps.lifecycle.ensureNetwork(vmi, log);
        if (held.observed !== undefined) {
          this.#deps.lifecycle.ensureCpuWeight(held.observed, vmi, log);
          await this.#deps.lifecycle.ensureAccounting(vmi, held.observed.name, log);
        }
        if (held.observed !== undefined && vmi.status?.phase === "Running") {
          const hotplugged = await this.#syncHotplug(vmi, held.observed, log);
          if (hotplugged.changed) {
            held.observed.handle.free();
            held.observed = await this.#observe(domainName);
          }
          // Looked at again until the domain matches the spec: an attachment pod may not run yet, and
          // a detached disk stays in the domain until the guest lets it go.
          const pending = held.observed !== undefined && hotplugPending(vmi, held.observed);
          if (hotplugged.failed || pending) hotplugRetry = { requeueAfterMs: HOTPLUG_RETRY_MS };
        }
      }
      for (let step = 0; step < MAX_STEPS; step += 1) {
        const decision = decide(await this.#decisionInput(vmi, held.observed));
        const outcome = await this.#execute(decision, vmi, held.observed, request);
        if (!outcome.again)
          return hotplugRetry && !outcome.result.requeueAfterMs ? hotplugRetry : outcome.result;
        held.observed?.handle.free();
        held.observed = await this.#observe(domainName);
      }
      throw new Error(`the VMI's domain kept changing: gave up after ${MAX_STEPS} steps`);
    } finally {
      held.observed?.handle.free();
    }
  }

  /**
   * Hotplug: what the spec added or dropped reaches the guest. A disk that cannot be attached yet (its
   * attachment pod is not running here, its claim not mounted) is tried again shortly, and said in an event.
   */
  async #syncHotplug(
    vmi: Frozen<Vmi>,
    observed: ObservedDomain,
    log: Logger,
  ): Promise<{ changed: boolean; failed: boolean }> {
    try {
      return { changed: await this.#deps.lifecycle.syncHotplug(vmi, observed, log), failed: false };
    } catch (error) {
      log.warn({ err: error }, "hotplugging a volume failed");
      this.#deps.events.warning(vmi, "HotplugFailed", `hotplugging a volume failed: ${messageOf(error)}`);
      return { changed: false, failed: true };
    }
  }

  /** The domain called `domainName` if this node's handler defined it; others' domains are left alone. */
  async #observe(domainName: string): Promise<ObservedDomain | undefined> {
    const { connection, factory, nodeName } = this.#deps;
    const observed = await readObservedDomain(connection, domainName, factory);
    if (observed === undefined) return undefined;
    if (observed.identity !== undefined && observed.node === nodeName) return observed;
    observed.handle.free();
    return undefined;
  }

  /**
   * Whether the VMI a domain names still exists although the cache does not show it (the cache
   * lags, or the VMI no longer carries this node's label): then its domain is not an orphan.
   */
  async #vmiStillExists(observed: ObservedDomain, cached: Frozen<Vmi> | undefined): Promise<boolean> {
    const identity = observed.identity;
    if (identity === undefined || cached !== undefined) return false;
    try {
      const live = await this.#deps.vmiClient.get({ namespace: identity.namespace, name: identity.name });
      return live.metadata?.uid === identity.uid;
    } catch (error) {
      if (error instanceof NotFoundError) return false;
      throw error;
    }
  }

  async #decisionInput(vmi: Frozen<Vmi>, observed: ObservedDomain | undefined) {
    const phase = vmi.status?.phase;
    const anchored = (phase === "Scheduled" || phase === "Running") && !vmi.metadata?.deletionTimestamp;
    return {
      vmi,
      domain: observed && withAgentReport(observed, this.#deps.guestAgent),
      launcher: anchored ? await launcherState(vmi, this.#deps.launcher) : ("present" as const),
      podIPs: launcherPodIPs(vmi, this.#deps.launcher),
      launcherReady: launcherReadiness(vmi, this.#deps.launcher),
      permission: this.#deps.permission(vmi),
      shutdownRequestedAt: this.#shutdowns.get(vmi.metadata?.uid ?? ""),
      now: this.#deps.clock.now(),
    };
  }

  async #execute(
    decision: Decision,
    vmi: Frozen<Vmi>,
    observed: ObservedDomain | undefined,
    request: ReconcileRequest,
  ): Promise<StepResult> {
    const { log } = request;
    const uid = vmi.metadata?.uid ?? "";
    switch (decision.kind) {
      case "none":
        return DONE;
      case "start":
        return this.#start(vmi, observed, decision.emulation, request);
      case "shutdown":
        if (observed === undefined) return AGAIN;
        log.info({ graceMs: decision.recheckInMs }, "stopping the VMI: ACPI shutdown");
        await observed.handle.shutdown();
        this.#shutdowns.set(uid, this.#deps.clock.now());
        return { again: false, result: { requeueAfterMs: decision.recheckInMs } };
      case "destroy":
        if (observed === undefined) return AGAIN;
        log.info("stopping the VMI: destroying its domain");
        await this.#deps.lifecycle.destroy(observed.handle);
        return AGAIN;
      case "wait":
        return { again: false, result: { requeueAfterMs: decision.recheckInMs } };
      case "write":
        await this.#write(request.key, vmi, decision.vmi, log);
        return DONE;
      case "finish":
        await this.#finish(decision, vmi, observed, request);
        return DONE;
    }
  }

  async #start(
    vmi: Frozen<Vmi>,
    observed: ObservedDomain | undefined,
    emulation: boolean,
    request: ReconcileRequest,
  ): Promise<StepResult> {
    const { lifecycle, events, clock, withDefaults } = this.#deps;
    const uid = vmi.metadata?.uid ?? "";
    const backingOff = observed === undefined ? this.#pullBackoff.backingOff(uid, clock.now()) : undefined;
    if (backingOff !== undefined) {
      const now = clock.now();
      const showsError = now < backingOff.failedAt + this.#pullBackoff.errorShownMs;
      const next = showsError ? undefined : pullBackoffStatus(vmi, backingOff, now);
      if (next !== undefined) await this.#write(request.key, vmi, next, request.log);
      const until = showsError ? backingOff.failedAt + this.#pullBackoff.errorShownMs : backingOff.retryAt;
      return { again: false, result: { requeueAfterMs: Math.max(until - now, 100) } };
    }
    try {
      // A domain defined but never started (virt-handler stopped in between) is defined again: its
      // claims' disks must be opened and handed to libvirt again by this process.
      await lifecycle.defineAndStart(withDefaults(vmi), emulation, request.log);
      this.#pullBackoff.forget(uid);
    } catch (error) {
      if (error instanceof VmiImagePullError) {
        const now = clock.now();
        const failure = this.#pullBackoff.failed(uid, error.image, error.message, now);
        request.log.warn(
          { image: error.image, err: error, retryAt: failure.retryAt },
          "pulling an image failed",
        );
        events.warning(vmi, "Failed", `Failed to pull image "${error.image}": ${error.message}`);
        await this.#write(request.key, vmi, pullFailedStatus(vmi, error.reason, failure, now), request.log);
        return { again: false, result: { requeueAfterMs: this.#pullBackoff.errorShownMs } };
      }
      if (error instanceof VmiStartError) {
        request.log.warn({ reason: error.reason, err: error }, "the VMI cannot start");
        events.warning(vmi, error.reason, error.message);
        const failed = cannotStart(vmi, error, clock.now());
        await this.#execute(failed, vmi, observed, request);
        return DONE;
      }
      events.warning(vmi, "SyncFailed", `starting the VMI failed: ${messageOf(error)}`);
      throw error;
    }
    events.normal(
      vmi,
      "Started",
      `VirtualMachineInstance started${emulation ? " (software emulation)" : ""}`,
    );
    return AGAIN;
  }

  async #finish(
    decision: Extract<Decision, { kind: "finish" }>,
    vmi: Frozen<Vmi>,
    observed: ObservedDomain | undefined,
    request: ReconcileRequest,
  ): Promise<void> {
    const uid = vmi.metadata?.uid ?? "";
    const cleanup = async (): Promise<void> => {
      if (observed !== undefined) await this.#deps.lifecycle.remove(observed, request.log);
      else await this.#deps.lifecycle.removeFiles(uid);
      this.#shutdowns.delete(uid);
      this.#pullBackoff.forget(uid);
    };
    if (decision.cleanupFirst) await cleanup();
    if (decision.vmi !== undefined) await this.#write(request.key, vmi, decision.vmi, request.log);
    if (!decision.cleanupFirst) await cleanup();
  }

  async #write(key: string, before: Frozen<Vmi>, after: Vmi, log: Logger): Promise<void> {
    try {
      const stored = await this.#deps.vmiClient.update(after);
      this.#writes.wrote(key, before.metadata?.resourceVersion, stored.metadata?.resourceVersion);
      log.info({ phase: after.status?.phase, reason: after.status?.reason }, "VMI status written");
    } catch (error) {
      if (error instanceof NotFoundError) return; // deleted meanwhile: nothing left to report to
      throw error;
    }
  }
}

/** The domain's facts with what its guest agent last reported, while it is connected. */
function withAgentReport(observed: ObservedDomain, reports: GuestAgentReports | undefined): DomainFacts {
  const { facts } = observed;
  const connected = facts.agent?.connected ?? false;
  const report = connected ? reports?.reportOf(observed.name) : undefined;
  const readiness = reports?.readinessOf?.(observed.name);
  if (report === undefined && readiness === undefined) return facts;
  return {
    ...facts,
    agent: { connected, ...(report ? { report } : {}), ...(readiness ? { readiness } : {}) },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
