import { type Cause, invalid } from "./cause.js";
import { dns1123LabelErrors, dns1123SubdomainErrors } from "./dns-names.js";

/**
 * The longest libvirt domain name a node can hold: the QEMU driver keeps each domain in
 * `<name>.xml`, written as `<name>.xml.new` first, and a file name has at most 255 bytes.
 * (Measured on libvirt 9: 247 defines and starts, 248 fails with "File name too long".)
 */
export const MAX_DOMAIN_NAME_BYTES = 247;

/** KubeVirt's domain name of a VMI: "<namespace>_<name>". */
export function domainNameFor(namespace: string, name: string): string {
  return `${namespace}_${name}`;
}

/**
 * A VMI's name and namespace as its node uses them: the API server makes the name a DNS-1123
 * subdomain (up to 253 characters) and the namespace a label (up to 63), but "<namespace>_<name>"
 * must also fit libvirt's limit. KubeVirt does not check this (the domain then fails to define);
 * here the VMI, or the VM whose name it takes, is refused with the field. The namespace defaults
 * to "default", as the API server fills it in.
 */
export function validateDomainName(
  metadata: { name?: string | undefined; namespace?: string | undefined } | undefined,
): Cause[] {
  const name = metadata?.name ?? "";
  const namespace = metadata?.namespace || "default";
  if (name === "") return [];
  const causes: Cause[] = [
    ...dns1123SubdomainErrors(name).map((error) => invalid("metadata.name", error)),
    ...dns1123LabelErrors(namespace).map((error) => invalid("metadata.namespace", error)),
  ];
  const length = Buffer.byteLength(domainNameFor(namespace, name));
  if (length > MAX_DOMAIN_NAME_BYTES) {
    causes.push({
      reason: "FieldValueTooLong",
      field: "metadata.name",
      message: `the libvirt domain name "<namespace>_<name>" would be ${length} characters, more than the ${MAX_DOMAIN_NAME_BYTES} a node can hold: use a name of at most ${MAX_DOMAIN_NAME_BYTES - namespace.length - 1} characters in namespace ${namespace}`,
    });
  }
  return causes;
}
