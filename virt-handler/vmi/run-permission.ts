// Whether VMs may start on this node and how: under KVM when it works, under TCG when it does not
// and the cluster allows emulation (KubeVirt's useEmulation), not at all otherwise.
import type { HandlerConfig } from "../config/handler-config.js";
import type { KvmStatus } from "../node/kvm-detection.js";
import type { RunPermission } from "./vmi-decision.js";

export function runPermission(kvm: KvmStatus, config: HandlerConfig, nodeName: string): RunPermission {
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
