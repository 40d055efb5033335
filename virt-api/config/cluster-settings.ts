/**
 * What the webhooks take from the KubeVirt CR's `spec.configuration`: the cluster defaults
 * (machine type, CPU model and request, overcommit, default network binding...) and the feature
 * gates some rules depend on. Read from the informer on every review, so a configuration change
 * applies to the next object without a restart; without an active CR (see `activeKubeVirt`),
 * KubeVirt's defaults apply.
 */
import {
  activeKubeVirt,
  type ClusterDefaults,
  clusterDefaultsFrom,
  enabledFeatureGates,
  KUBEVIRT_DEFAULTS,
  type KubeVirtConfiguration,
} from "../../api/index.js";
import type { Frozen, SharedInformer } from "../../runtime/index.js";
import type { KubeVirt } from "../kinds.js";

export interface ClusterSettings {
  readonly defaults: ClusterDefaults;
  readonly featureGates: readonly string[];
  /** The network binding plugins registered under spec.configuration.network.binding. */
  readonly bindingPlugins: readonly string[];
}

export const NO_KUBEVIRT_SETTINGS: ClusterSettings = {
  defaults: KUBEVIRT_DEFAULTS,
  featureGates: [],
  bindingPlugins: [],
};

export interface ClusterSettingsSource {
  current(): ClusterSettings;
}

export class KubeVirtClusterSettings implements ClusterSettingsSource {
  readonly #informer: SharedInformer<KubeVirt>;
  readonly #namespace: string;
  #cached: { version: string; settings: ClusterSettings } | undefined;

  constructor(informer: SharedInformer<KubeVirt>, namespace: string) {
    this.#informer = informer;
    this.#namespace = namespace;
  }

  current(): ClusterSettings {
    const kubevirt = activeKubeVirt(this.#informer.list({ namespace: this.#namespace }), this.#namespace);
    if (!kubevirt) return NO_KUBEVIRT_SETTINGS;
    const version = `${kubevirt.metadata?.uid ?? ""}@${kubevirt.metadata?.resourceVersion ?? ""}`;
    if (this.#cached?.version === version) return this.#cached.settings;
    const settings = settingsOf(kubevirt);
    this.#cached = { version, settings };
    return settings;
  }
}

export function settingsOf(kubevirt: Frozen<KubeVirt>): ClusterSettings {
  const configuration = kubevirt.spec.configuration as KubeVirtConfiguration | undefined;
  return {
    defaults: clusterDefaultsFrom(configuration),
    // Enabled and not disabled (KubeVirt's rule: disabledFeatureGates wins).
    featureGates: [...enabledFeatureGates(configuration)],
    bindingPlugins: Object.keys(configuration?.network?.binding ?? {}),
  };
}
