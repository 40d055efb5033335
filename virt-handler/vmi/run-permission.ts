// Whether VMs may start on this node and how: under KVM when it works, under TCG when it does not
// and the cluster allows emulation (KubeVirt's useEmulation), not at all otherwise.
// A VMI that uses a feature-gated field whose gate is off may not start at all.
import type { Frozen } from "../../runtime/index.js";
import type { HandlerConfig } from "../config/handler-config.js";
import type { Vmi } from "../kinds.js";
import type { KvmStatus } from "../node/kvm-detection.js";
import { gatedFeatureRefusal } from "./gated-features.js";
import type { RunPermission } from "./vmi-decision.js";

export function runPermission(
  kvm: KvmStatus,
  config: HandlerConfig,
  nodeName: string,
  vmi: Frozen<Vmi>,
): RunPermission {
  const refusal = gatedFeatureRefusal(vmi, config.configuration);
  if (refusal !== undefined) return { ok: false, ...refusal };
  if (kvm.usable) return { ok: true, emulation: false };
  if (config.useEmulation) return { ok: true, emulation: true };
  return {
    ok: false,
    reason: "KvmUnavailable",
    message:
      `KVM does not work on node ${nodeName} (${kvm.detail}) and software emulation is not allowed: ` +
      "set spec.configuration.developerConfiguration.useEmulation in the KubeVirt CR",
  };
}
