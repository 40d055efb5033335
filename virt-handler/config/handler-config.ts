// KubeVirt's configuration as virt-handler sees it: read from the KubeVirt CR of its namespace
// (`spec.configuration`), as KubeVirt's components do; flags only say where that CR lives.
import { activeKubeVirt, type KubeVirtConfiguration } from "../../api/index.js";
import type { Frozen } from "../../runtime/index.js";
import { jsonEqual } from "../../runtime/index.js";
import type { KubeVirt } from "../kinds.js";

export interface HandlerConfig {
  /** `developerConfiguration.useEmulation`: VMs may run under TCG when KVM does not work. */
  readonly useEmulation: boolean;
  /** The whole `spec.configuration` (undefined without a KubeVirt CR), for the VMI defaults. */
  readonly configuration: Frozen<KubeVirtConfiguration> | undefined;
}

export const DEFAULT_HANDLER_CONFIG: HandlerConfig = { useEmulation: false, configuration: undefined };

/** The configuration the active KubeVirt CR of `namespace` implies (see `activeKubeVirt`). */
export function handlerConfigFrom(kubevirts: readonly Frozen<KubeVirt>[], namespace: string): HandlerConfig {
  const configuration = activeKubeVirt(kubevirts, namespace)?.spec.configuration;
  if (configuration === undefined) return DEFAULT_HANDLER_CONFIG;
  return {
    useEmulation: configuration.developerConfiguration?.useEmulation === true,
    configuration,
  };
}

/** Whether two configurations differ in anything virt-handler acts on. */
export function configChanged(before: HandlerConfig, after: HandlerConfig): boolean {
  return (
    before.useEmulation !== after.useEmulation ||
    !jsonEqual(before.configuration ?? null, after.configuration ?? null)
  );
}
