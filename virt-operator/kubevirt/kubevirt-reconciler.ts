import {
  CACHE_IS_BEHIND,
  type Clock,
  type EventRecorder,
  type Frozen,
  mutableCopy,
  objectKey,
  type ReconcileRequest,
  type ReconcileResult,
  type SharedInformer,
  TerminalError,
} from "../../runtime/index.js";
import type { CertificateManager, CertificateState } from "../certificates/certificate-manager.js";
import type { KubeVirt } from "../kinds.js";
import type {
  InstallStrategy,
  IssuedTrust,
  OperatorIdentity,
  RenderStrategy,
} from "../strategy/install-strategy.js";
import { electActiveKubeVirt, holdsFinalizer, type Refusal } from "./active-kubevirt.js";
import { computeInstallStatus } from "./install-status.js";
import type { Installer } from "./installer.js";
import type { KubeVirtWrites } from "./kubevirt-writes.js";
import {
  DELETION_BLOCKED,
  deletedStatus,
  deletingStatus,
  deletionBlockedStatus,
  invalidStrategyStatus,
  refusedStatus,
} from "./lifecycle-status.js";
import type { ManagedKindTable } from "./managed-kinds.js";
import { type StrategyEntry, strategyEntries } from "./strategy-entries.js";
import type { Uninstaller } from "./uninstaller.js";

export interface KubeVirtReconcilerDeps {
  identity: OperatorIdentity;
  renderStrategy: RenderStrategy;
  kubevirts: SharedInformer<KubeVirt>;
  kinds: ManagedKindTable;
  /** Issues and renews the certificates before each install pass (certificates/). */
  certificates: CertificateManager;
  installer: Installer;
  uninstaller: Uninstaller;
  writes: KubeVirtWrites;
  events: EventRecorder;
  clock: Clock;
}

/** The shortest wait before looking at the certificates again (a renewal due "now" was just made). */
const MIN_CERTIFICATE_RECHECK_MS = 1000;

/**
 * One reconcile of one KubeVirt, from the caches: a refused CR gets an error in its status; the
 * active one is installed (finalizer first, then the certificates, then the strategy rendered
 * with their CA bundle, then the status) or, once deleted, uninstalled step by step. Killed at
 * any point, the next reconcile picks up from what exists. An installed CR is looked at again
 * when the next certificate is due for renewal.
 */
export class KubeVirtReconciler {
  readonly #deps: KubeVirtReconcilerDeps;

  constructor(deps: KubeVirtReconcilerDeps) {
    this.#deps = deps;
  }

  async reconcile(request: ReconcileRequest): Promise<ReconcileResult> {
    const { kubevirts, writes, identity } = this.#deps;
    const kubevirt = kubevirts.get(request.key);
    if (!kubevirt) {
      writes.forget(request.key);
      return {};
    }
    if (writes.cacheIsBehind(kubevirt)) return CACHE_IS_BEHIND;
    const election = electActiveKubeVirt(kubevirts.list(), identity.namespace);
    const refusal = election.refused.get(request.key);
    if (!election.active || objectKey(election.active) !== request.key) {
      await this.#refuse(kubevirt, refusal, request);
      return {};
    }
    if (kubevirt.metadata?.deletionTimestamp) {
      await this.#uninstall(kubevirt, request);
      return {};
    }
    return this.#install(kubevirt, request);
  }

  async #refuse(
    kubevirt: Frozen<KubeVirt>,
    refusal: Refusal | undefined,
    request: ReconcileRequest,
  ): Promise<void> {
    const { writes, clock } = this.#deps;
    if (kubevirt.metadata?.deletionTimestamp) {
      // Nothing was installed for it: whatever holds our finalizer may go at once.
      await writes.removeFinalizer(kubevirt);
      return;
    }
    if (!refusal) return;
    if (
      kubevirt.status?.conditions?.find((condition) => condition.type === "Degraded")?.reason !==
      refusal.reason
    ) {
      request.log.warn({ reason: refusal.reason }, refusal.message);
      this.#deps.events.warning(kubevirt, refusal.reason, refusal.message);
    }
    await writes.writeStatus(kubevirt, refusedStatus(kubevirt, refusal.reason, refusal.message, clock.now()));
  }

  async #install(cached: Frozen<KubeVirt>, request: ReconcileRequest): Promise<ReconcileResult> {
    const { writes, clock, events, identity } = this.#deps;
    const kubevirt = await writes.addFinalizer(cached);
    const certificates = await this.#ensureCertificates(kubevirt, request);
    const { strategy, entries } = await this.#render(kubevirt, { caBundlePem: certificates.caBundlePem });
    const result = await this.#deps.installer.install(
      kubevirt,
      strategy,
      entries,
      request.log,
      request.signal,
    );
    const status = computeInstallStatus(kubevirt, identity, result.observation, clock.now());
    const deployedNow =
      status.observedDeploymentID === strategy.id && kubevirt.status?.observedDeploymentID !== strategy.id;
    await writes.writeStatus(kubevirt, status);
    if (deployedNow) {
      request.log.info(
        { version: strategy.version, id: strategy.id },
        "install complete: every component is available",
      );
      events.normal(
        kubevirt,
        "Deployed",
        `Deployed ${strategy.version} from ${strategy.registry}: every component is available`,
      );
    }
    if (result.error) throw result.error;
    return { requeueAfterMs: Math.max(MIN_CERTIFICATE_RECHECK_MS, certificates.nextDueAt - clock.now()) };
  }

  /** The certificates as they must be now; what was issued is logged and told in events. */
  async #ensureCertificates(
    kubevirt: Frozen<KubeVirt>,
    request: ReconcileRequest,
  ): Promise<CertificateState> {
    const { certificates, events, identity } = this.#deps;
    let state: CertificateState;
    try {
      state = await certificates.ensure(identity.namespace, request.signal);
    } catch (error) {
      const message = `cannot issue the certificates: ${error instanceof Error ? error.message : String(error)}`;
      events.warning(kubevirt, "CertificateFailed", message);
      throw new Error(message, { cause: error });
    }
    for (const { secret, change, reason } of state.changes) {
      const where = `Secret ${identity.namespace}/${secret}`;
      if (change === "issued") {
        request.log.info({ secret, reason }, "issued a certificate");
        events.normal(kubevirt, "CertificateIssued", `Issued ${where}: ${reason}`);
      } else {
        request.log.info({ secret, reason }, "updated a certificate Secret");
        events.normal(kubevirt, "CertificateUpdated", `Updated ${where}: ${reason}`);
      }
    }
    return state;
  }

  /** The strategy for the CR as it is now; a strategy that cannot be applied is a terminal error. */
  async #render(
    kubevirt: Frozen<KubeVirt>,
    trust: IssuedTrust,
  ): Promise<{ strategy: InstallStrategy; entries: StrategyEntry[] }> {
    const { identity, renderStrategy, kinds, writes, events, clock } = this.#deps;
    try {
      // api/ types metadata as the schema allows it; the cached shape passes unchanged.
      const strategy = renderStrategy(identity, mutableCopy<KubeVirt>(kubevirt), trust);
      return { strategy, entries: strategyEntries(strategy, kinds) };
    } catch (error) {
      const message = `cannot render the install strategy: ${error instanceof Error ? error.message : String(error)}`;
      events.warning(kubevirt, "InvalidStrategy", message);
      await writes.writeStatus(kubevirt, invalidStrategyStatus(kubevirt, message, clock.now()));
      throw new TerminalError("InvalidStrategy", message, { cause: error });
    }
  }

  async #uninstall(kubevirt: Frozen<KubeVirt>, request: ReconcileRequest): Promise<void> {
    const { writes, clock, events, uninstaller } = this.#deps;
    // Deleted before the finalizer was added: nothing was installed from it.
    if (!holdsFinalizer(kubevirt)) return;
    const step = await uninstaller.step(kubevirt, request.log, request.signal);
    const now = clock.now();
    if (step.step === "blocked") {
      const degraded = kubevirt.status?.conditions?.find((condition) => condition.type === "Degraded");
      if (degraded?.reason !== DELETION_BLOCKED || degraded.message !== step.message) {
        request.log.warn(step.message);
        events.warning(kubevirt, DELETION_BLOCKED, step.message);
      }
      await writes.writeStatus(kubevirt, deletionBlockedStatus(kubevirt, step.message, now));
      return;
    }
    if (step.step === "removing") {
      await writes.writeStatus(kubevirt, deletingStatus(kubevirt, step.message, now));
      return;
    }
    const deleted = await writes.writeStatus(kubevirt, deletedStatus(kubevirt, now));
    request.log.info("uninstall complete: removing the finalizer");
    events.normal(kubevirt, "Deleted", "Uninstalled: every object virt-operator installed was deleted");
    await writes.removeFinalizer(deleted);
  }
}
