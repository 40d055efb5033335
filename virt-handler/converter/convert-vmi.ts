// VMI → libvirt domain: a base domain, then one configurator per concern, in order. Pure: the volumes
// were prepared before (storage/prepare-volumes.ts), and the result is a typed DomainDefinition that
// domainToXml() writes. It expects a VMI with KubeVirt's defaults applied (api/'s
// defaultVirtualMachineInstance); missing fields take KubeVirt's defaults here too.
import type { VirtualMachineInstance } from "../../api/index.js";
import { type DomainDefinition, DomainXmlError, domainToXml } from "../../libvirt/domain-xml/index.js";
import type { PreparedVolumes } from "../storage/prepare-volumes.js";
import { configureCompute } from "./compute.js";
import type { Configurator, ConversionInput, ConversionOptions } from "./configurator.js";
import { refuseUnconfinedValues } from "./confinement.js";
import { configureSerialConsole } from "./console.js";
import { VmiConversionError } from "./conversion-error.js";
import { configureInputs, configureMemBalloon, configureRng } from "./devices.js";
import { configureMetadata } from "./domain-identity.js";
import { configureFirmware } from "./firmware.js";
import { configureGraphics } from "./graphics.js";
import { configureGuestAgentChannel } from "./guest-agent-channel.js";
import { configureClock, configureFeatures, configureLifecycle } from "./platform.js";
import { configurePodNetwork } from "./pod-network.js";
import { configureStorage } from "./storage.js";
import { refuseUnsupported } from "./unsupported.js";

export type { ConversionOptions } from "./configurator.js";
export { VmiConversionError, type VmiConversionReason } from "./conversion-error.js";
export { domainNameOf, vmiUidFromDomain } from "./domain-identity.js";

/** The configurators, in the order they run (features before firmware: secure boot adds SMM). */
export const CONFIGURATORS: ReadonlyArray<readonly [concern: string, configure: Configurator]> = [
  ["unsupported", refuseUnsupported],
  ["metadata", configureMetadata],
  ["compute", configureCompute],
  ["features", configureFeatures],
  ["clock", configureClock],
  ["lifecycle", configureLifecycle],
  ["firmware", configureFirmware],
  ["storage", configureStorage],
  ["network", configurePodNetwork],
  ["console", configureSerialConsole],
  ["graphics", configureGraphics],
  ["inputs", configureInputs],
  ["rng", configureRng],
  ["memballoon", configureMemBalloon],
  ["guest agent", configureGuestAgentChannel],
];

function conversionInput(
  vmi: VirtualMachineInstance,
  prepared: PreparedVolumes,
  options: ConversionOptions,
): ConversionInput {
  const { uid, name, namespace } = vmi.metadata ?? {};
  if (!uid || !name)
    throw new VmiConversionError("InvalidSpec", "the VMI has no metadata.uid or metadata.name");
  refuseUnconfinedValues(vmi);
  return {
    vmi,
    spec: vmi.spec,
    identity: { uid, name, namespace: namespace || "default" },
    prepared,
    options,
  };
}

export function convertVmi(
  vmi: VirtualMachineInstance,
  prepared: PreparedVolumes,
  options: ConversionOptions,
): DomainDefinition {
  const input = conversionInput(vmi, prepared, options);
  const domain: DomainDefinition = {
    type: options.emulation ? "qemu" : "kvm",
    name: options.domainName,
    memory: { value: 0, unit: "b" },
    vcpu: { count: 1 },
    os: { type: "hvm" },
    devices: {},
  };
  for (const [, configure] of CONFIGURATORS) configure(domain, input);
  refuseUnwritable(domain);
  return domain;
}

/**
 * The last line of defence: a value that got past every field rule but that XML cannot carry (a
 * control character) fails the VMI here, with where it is, instead of failing each define.
 */
function refuseUnwritable(domain: DomainDefinition): void {
  try {
    domainToXml(domain);
  } catch (error) {
    if (!(error instanceof DomainXmlError)) throw error;
    throw new VmiConversionError("InvalidSpec", `the domain cannot be written: ${error.message}`, {
      cause: error,
    });
  }
}
