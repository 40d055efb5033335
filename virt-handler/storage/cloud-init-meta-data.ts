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

/**
 * The public keys as KubeVirt's meta-data carries them (`public-keys` in NoCloud's, `public_keys` in
 * ConfigDrive's): a map from "0", "1", ... to each key's text; none when there are no keys.
 */
export function numberedPublicKeys(publicKeys: readonly string[]): Record<string, string> | undefined {
  if (publicKeys.length === 0) return undefined;
  return Object.fromEntries(publicKeys.map((key, position) => [String(position), key]));
}

/** NoCloud's `meta-data` (YAML), with the SSH keys of spec.accessCredentials (noCloud) if any. */
export function noCloudMetaData(identity: MetaDataIdentity, publicKeys: readonly string[] = []): string {
  const keys = numberedPublicKeys(publicKeys);
  const metaData = {
    "instance-id": identity.instanceId,
    "local-hostname": cloudInitHostname(identity),
    ...(keys === undefined ? {} : { "public-keys": keys }),
  };
  return stringify(metaData, { lineWidth: 0 });
}
