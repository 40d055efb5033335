/**
 * The guest's hostname as KubeVirt derives it (pkg/util/net/dns SanitizeHostname): `spec.hostname`
 * when set (admission made it a DNS-1123 label), else the VMI name's first DNS label, cut to 63
 * characters. It names the launcher pod (`vm.kubevirt.io/name`, a label value: at most 63) and
 * the guest (cloud-init `local-hostname`).
 */
export const MAX_HOSTNAME_LENGTH = 63;

export function guestHostname(name: string, specHostname?: string): string {
  if (specHostname) return specHostname;
  const firstLabel = name.split(".")[0] ?? "";
  // Unlike KubeVirt, a cut that ends in a hyphen drops it: a label must end alphanumeric.
  return firstLabel.slice(0, MAX_HOSTNAME_LENGTH).replace(/-+$/, "");
}
