// KubeVirt's configuration as virt-handler sees it: read from the KubeVirt CR of its namespace
// (`spec.configuration`), as KubeVirt's components do; flags only say where that CR lives.
import type { KubeVirtConfiguration } from "../../api/index.js";
import type { Frozen } from "../../runtime/index.js";
import type { KubeVirt } from "../kinds.js";

export interface HandlerConfig {
  /** `developerConfiguration.useEmulation`: VMs may run under TCG when KVM does not work. */
  readonly useEmulation: boolean;
  /** The whole `spec.configuration` (undefined without a KubeVirt CR), for the VMI defaults. */
  readonly configuration: Frozen<KubeVirtConfiguration> | undefined;
}

export const DEFAULT_HANDLER_CONFIG: HandlerConfig = { useEmulation: false, configuration: undefined };

/**
 * The configuration the KubeVirt CRs of `namespace` imply. KubeVirt runs one CR per install; if
 * there are more, the oldest one counts (the later ones are what virt-operator would reject).
 */
export function handlerConfigFrom(kubevirts: readonly Frozen<KubeVirt>[], namespace: string): HandlerConfig {
  const candidates = kubevirts
    .filter((kv) => kv.metadata?.namespace === namespace && !kv.metadata?.deletionTimestamp)
    .sort((a, b) => creationOrder(a).localeCompare(creationOrder(b)));
  const configuration = candidates[0]?.spec.configuration;
  if (configuration === undefined) return DEFAULT_HANDLER_CONFIG;
  return {
    useEmulation: configuration.developerConfiguration?.useEmulation === true,
    configuration,
  };
}

function creationOrder(kv: Frozen<KubeVirt>): string {
  return `${kv.metadata?.creationTimestamp ?? ""}/${kv.metadata?.name ?? ""}`;
}

/** Whether two configurations differ in anything virt-handler acts on. */
export function configChanged(before: HandlerConfig, after: HandlerConfig): boolean {
  return (
    before.useEmulation !== after.useEmulation ||
    JSON.stringify(before.configuration ?? null) !== JSON.stringify(after.configuration ?? null)
  );
}
