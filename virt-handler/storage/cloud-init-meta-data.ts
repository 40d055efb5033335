// cloud-init's meta-data for a VMI: who the guest is. The hostname is KubeVirt's (spec.hostname, else
// the VMI name's first label cut to 63 characters) and must be a DNS-1123 label; the NoCloud file is
// written by a YAML library, not by joining strings, so no value can add a key of its own.
import { stringify } from "yaml";
import { dns1123LabelErrors, guestHostname } from "../../api/index.js";
import { VmiConversionError } from "../converter/conversion-error.js";

export interface MetaDataIdentity {
  readonly instanceId: string;
  /** spec.hostname, else the VMI's name. */
  readonly hostname: string;
}

/** The guest's hostname; a VMI whose hostname is not a DNS-1123 label is refused. */
export function cloudInitHostname(identity: MetaDataIdentity): string {
  const hostname = guestHostname(identity.hostname);
  const errors = dns1123LabelErrors(hostname);
  if (errors.length > 0) {
    throw new VmiConversionError(
      "InvalidSpec",
      `spec.hostname ${JSON.stringify(identity.hostname)} cannot be the guest's hostname: ${errors.join(", ")}`,
    );
  }
  return hostname;
}

/** NoCloud's `meta-data` (YAML). */
export function noCloudMetaData(identity: MetaDataIdentity): string {
  const metaData = { "instance-id": identity.instanceId, "local-hostname": cloudInitHostname(identity) };
  return stringify(metaData, { lineWidth: 0 });
}
