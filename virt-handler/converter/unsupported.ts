// Parts of a VMI that would give the guest hardware or guarantees kubevirt-ts cannot provide yet. They are
// refused with the reason rather than silently dropped: a VM that boots without its GPU or its TPM is
// worse than one that says why it does not start. (What is ignored instead is listed in the README.)
import type { Configurator } from "./configurator.js";
import { VmiConversionError } from "./conversion-error.js";

export const refuseUnsupported: Configurator = (_domain, { spec }) => {
  const domain = spec.domain;
  const devices = domain.devices;
  const refusals: Array<[boolean, string]> = [
    [(devices.gpus ?? []).length > 0, "GPUs are not supported yet"],
    [(devices.hostDevices ?? []).length > 0, "host devices are not supported yet"],
    [(devices.filesystems ?? []).length > 0, "virtiofs filesystems are not supported yet"],
    [devices.tpm !== undefined && devices.tpm.enabled !== false, "a TPM is not supported yet (no swtpm)"],
    [domain.launchSecurity !== undefined, "launchSecurity (SEV, TDX) is not supported"],
    [domain.memory?.hugepages !== undefined, "hugepages are not supported yet"],
  ];
  const refused = refusals.find(([applies]) => applies);
  if (refused !== undefined) throw new VmiConversionError("UnsupportedDevice", refused[1]);
};
