// VMI → libvirt domain definition, made of small configurators (see convert-vmi.ts).

export { stableMacAddress } from "../network/guest-mac.js";
export type { Configurator, ConversionInput, ConversionOptions, VmiIdentity } from "./configurator.js";
export { refuseUnconfinedValues } from "./confinement.js";
export { VmiConversionError, type VmiConversionReason } from "./conversion-error.js";
export { CONFIGURATORS, convertVmi } from "./convert-vmi.js";
export {
  domainNameOf,
  KUBEVIRT_METADATA_ELEMENT,
  KUBEVIRT_METADATA_NAMESPACE,
  vmiUidFromDomain,
} from "./domain-identity.js";
export { domainUuidOf, efiFirmwareInstalled, firmwareUuidOf } from "./firmware.js";
