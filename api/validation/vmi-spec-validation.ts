import { DNS_POLICIES } from "../core/scheduling.js";
import { CPU_FEATURE_POLICIES } from "../vmi/cpu.js";
import type { Probe } from "../vmi/probe.js";
import type { VirtualMachineInstanceSpec } from "../vmi/vmi-spec.js";
import { validateAccessCredentials } from "./access-credentials-validation.js";
import { type Cause, invalid, notSupported, required } from "./cause.js";
import { validateDeviceNames } from "./device-names-validation.js";
import { validateDisks } from "./disks-validation.js";
import { dns1123SubdomainErrors } from "./dns-names.js";
import { child, index } from "./field-path.js";
import { validateFirmware } from "./firmware-validation.js";
import { validateHostname } from "./host-facing-validation.js";
import { validateNetworks } from "./networks-validation.js";
import { validatePlatformNames } from "./platform-names-validation.js";
import { validateResources } from "./resources-validation.js";
import { validateSupportedFields } from "./unsupported-fields-validation.js";
import { validateVolumes } from "./volumes-validation.js";

const ARCHITECTURES = ["amd64", "arm64", "s390x"] as const;
const MAX_NAMESERVERS = 3;
const MAX_SEARCH_PATHS = 6;

/**
 * KubeVirt's semantic rules for a VMI spec (virt-api's ValidateVirtualMachineInstanceSpec), shared
 * by VMIs (`field` = `spec`) and the templates of VMs and replica sets (`spec.template.spec`).
 * Assumes the spec already has the schema's shape.
 */
export function validateVirtualMachineInstanceSpec(field: string, spec: VirtualMachineInstanceSpec): Cause[] {
  return [
    ...validateNames(field, spec),
    ...validateResources(field, spec),
    ...validateCpu(field, spec),
    ...validatePlatformNames(field, spec),
    ...validateFirmware(field, spec),
    ...validateDeviceNames(field, spec),
    ...validateDisks(field, spec),
    ...validateVolumes(field, spec),
    ...validateNetworks(field, spec),
    ...validateBootOrders(field, spec),
    ...validateProbes(field, spec),
    ...validateDns(field, spec),
    ...validateAccessCredentials(field, spec),
    ...validateSupportedFields(field, spec),
  ];
}

function validateNames(field: string, spec: VirtualMachineInstanceSpec): Cause[] {
  const causes: Cause[] = [];
  causes.push(...validateHostname(field, spec));
  const subdomainErrors = spec.subdomain ? dns1123SubdomainErrors(spec.subdomain) : [];
  if (subdomainErrors.length > 0) {
    const subdomainField = child(field, "subdomain");
    causes.push(
      invalid(
        subdomainField,
        `${subdomainField} does not conform to the kubernetes DNS_SUBDOMAIN rules : ${subdomainErrors.join(", ")}`,
      ),
    );
  }
  if (spec.architecture && !ARCHITECTURES.some((name) => name === spec.architecture)) {
    causes.push(notSupported(child(field, "architecture"), spec.architecture, ARCHITECTURES));
  }
  return causes;
}

function validateCpu(field: string, spec: VirtualMachineInstanceSpec): Cause[] {
  const featuresField = child(field, "domain", "cpu", "features");
  const causes: Cause[] = [];
  (spec.domain.cpu?.features ?? []).forEach((feature, position) => {
    const policy = feature.policy;
    if (policy !== undefined && policy !== "" && !CPU_FEATURE_POLICIES.some((known) => known === policy)) {
      causes.push(
        notSupported(child(index(featuresField, position), "policy"), policy, CPU_FEATURE_POLICIES),
      );
    }
  });
  return causes;
}

/** Boot orders are unique across disks and interfaces. */
function validateBootOrders(field: string, spec: VirtualMachineInstanceSpec): Cause[] {
  const seen = new Set<number>();
  const causes: Cause[] = [];
  const devices: [string, { bootOrder?: number | undefined }[]][] = [
    [child(field, "domain", "devices", "disks"), spec.domain.devices.disks ?? []],
    [child(field, "domain", "devices", "interfaces"), spec.domain.devices.interfaces ?? []],
  ];
  for (const [listField, items] of devices) {
    items.forEach((item, position) => {
      if (item.bootOrder === undefined || item.bootOrder < 1) return;
      if (seen.has(item.bootOrder)) {
        causes.push(
          invalid(
            child(index(listField, position), "bootOrder"),
            `Boot order for ${index(listField, position)}.bootOrder already set for a different device.`,
          ),
        );
      }
      seen.add(item.bootOrder);
    });
  }
  return causes;
}

function validateProbes(field: string, spec: VirtualMachineInstanceSpec): Cause[] {
  const podNetwork = hasPodNetwork(spec);
  const causes = [
    ...validateProbe(child(field, "readinessProbe"), spec.readinessProbe, podNetwork),
    ...validateProbe(child(field, "livenessProbe"), spec.livenessProbe, podNetwork),
  ];
  if (spec.startStrategy === "Paused" && spec.livenessProbe !== undefined) {
    causes.push(
      invalid(
        child(field, "startStrategy"),
        `either ${child(field, "startStrategy")} or ${child(field, "livenessProbe")} should be provided. Pausing VMI with LivenessProbe is not supported.`,
      ),
    );
  }
  return causes;
}

/** A pod network interface the VMI has or will get from the defaults (autoattachPodInterface). */
function hasPodNetwork(spec: VirtualMachineInstanceSpec): boolean {
  const networks = spec.networks ?? [];
  if (networks.length === 0 && (spec.domain.devices.interfaces ?? []).length === 0) {
    return spec.domain.devices.autoattachPodInterface !== false;
  }
  return networks.some((network) => network.pod !== undefined);
}

function validateProbe(field: string, probe: Probe | undefined, podNetwork: boolean): Cause[] {
  if (probe === undefined) return [];
  const handlers = [probe.exec, probe.httpGet, probe.tcpSocket, probe.guestAgentPing].filter(
    (handler) => handler !== undefined,
  );
  const names = ["tcpSocket", "exec", "httpGet", "guestAgentPing"]
    .map((name) => child(field, name))
    .join(", ");
  if (handlers.length === 0)
    return [invalid(field, `either ${names} must be set if a ${field} is specified`)];
  if (handlers.length > 1) return [invalid(field, `${field} must have exactly one probe type set`)];
  // httpGet and tcpSocket reach the guest at its pod's address (the node runs them, as the kubelet
  // does); exec and guestAgentPing run inside the guest through its agent (virt-handler runs them).
  for (const onNetwork of ["httpGet", "tcpSocket"] as const) {
    if (probe[onNetwork] !== undefined && !podNetwork) {
      return [
        invalid(
          child(field, onNetwork),
          `${child(field, onNetwork)} is only allowed if the Pod Network is attached`,
        ),
      ];
    }
  }
  return [];
}

function validateDns(field: string, spec: VirtualMachineInstanceSpec): Cause[] {
  const causes: Cause[] = [];
  const policy = spec.dnsPolicy;
  if (policy !== undefined && policy !== "" && !DNS_POLICIES.some((known) => known === policy)) {
    causes.push(notSupported(child(field, "dnsPolicy"), policy, DNS_POLICIES));
  }
  const config = spec.dnsConfig;
  const nameservers = config?.nameservers ?? [];
  if (policy === "None" && nameservers.length === 0) {
    causes.push(
      required(
        child(field, "dnsConfig", "nameservers"),
        "must provide at least one DNS nameserver when dnsPolicy is None",
      ),
    );
  }
  if (nameservers.length > MAX_NAMESERVERS) {
    causes.push(
      invalid(
        child(field, "dnsConfig", "nameservers"),
        `must not have more than ${MAX_NAMESERVERS} nameservers`,
      ),
    );
  }
  if ((config?.searches ?? []).length > MAX_SEARCH_PATHS) {
    causes.push(
      invalid(
        child(field, "dnsConfig", "searches"),
        `must not have more than ${MAX_SEARCH_PATHS} search paths`,
      ),
    );
  }
  return causes;
}
