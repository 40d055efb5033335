import { isDeepStrictEqual } from "node:util";
import type { Logger } from "pino";
import {
  activeKubeVirt,
  type ClusterDefaults,
  clusterDefaultsFrom,
  enabledFeatureGates,
  type KubeVirtConfiguration,
} from "../../api/index.js";
import type { Frozen, SharedInformer } from "../../runtime/index.js";
import type { KubeVirt } from "../kinds.js";

/** What virt-controller takes from the KubeVirt CR's `spec.configuration`. */
export interface ClusterConfigSnapshot {
  /** `developerConfiguration.useEmulation`: launcher pods do not ask for /dev/kvm. */
  readonly useEmulation: boolean;
  /** What defaulting reads (machine type, CPU model and request, overcommit, ...). */
  readonly defaults: ClusterDefaults;
  /** The feature gates the CR enables: admission's rules for gated fields depend on them. */
  readonly featureGates: readonly string[];
  /** `namespace/name` of the CR read, or undefined when there is none (KubeVirt's defaults apply). */
  readonly source: string | undefined;
}

/**
 * KubeVirt's configuration as virt-controller sees it: the active KubeVirt CR in its namespace
 * (see `activeKubeVirt`), read from the informer cache on every call, so a change
 * applies to the next reconcile without a restart. Without a CR, KubeVirt's defaults apply.
 */
export class ClusterConfig {
  readonly #informer: SharedInformer<KubeVirt>;
  readonly #namespace: string;
  readonly #log: Logger;
  #cached: { version: string; snapshot: ClusterConfigSnapshot } | undefined;
  readonly #listeners = new Set<() => void>();

  constructor(informer: SharedInformer<KubeVirt>, namespace: string, log: Logger) {
    this.#informer = informer;
    this.#namespace = namespace;
    this.#log = log.child({ config: `${namespace}/kubevirt` });
    const report = (): void => this.#report();
    informer.addEventHandler({ onAdd: report, onUpdate: report, onDelete: report });
  }

  /** Resolves once the KubeVirt CRs are cached (controllers wait for it before their first reconcile). */
  waitForSync(signal?: AbortSignal): Promise<boolean> {
    return this.#informer.waitForSync(signal);
  }

  /** Called when the configuration changes: what was decided under the old one may need deciding again. */
  onChange(listener: () => void): void {
    this.#listeners.add(listener);
  }

  current(): ClusterConfigSnapshot {
    const kubevirt = activeKubeVirt(this.#informer.list({ namespace: this.#namespace }), this.#namespace);
    const version = kubevirt
      ? `${kubevirt.metadata?.uid ?? ""}@${kubevirt.metadata?.resourceVersion ?? ""}`
      : "none";
    if (this.#cached?.version === version) return this.#cached.snapshot;
    const snapshot = snapshotOf(kubevirt);
    this.#cached = { version, snapshot };
    return snapshot;
  }

  #report(): void {
    const before = this.#cached?.snapshot;
    const after = this.current();
    if (before && isDeepStrictEqual(before, after)) return;
    this.#log.info({ source: after.source ?? "none", useEmulation: after.useEmulation }, "configuration");
    if (before) for (const listener of this.#listeners) listener();
  }
}

export function snapshotOf(kubevirt: Frozen<KubeVirt> | undefined): ClusterConfigSnapshot {
  const configuration = kubevirt?.spec.configuration as KubeVirtConfiguration | undefined;
  return {
    useEmulation: configuration?.developerConfiguration?.useEmulation === true,
    defaults: clusterDefaultsFrom(configuration),
    featureGates: [...enabledFeatureGates(configuration)],
    source: kubevirt ? `${kubevirt.metadata?.namespace ?? ""}/${kubevirt.metadata?.name ?? ""}` : undefined,
  };
}
