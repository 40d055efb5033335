// The files of cloud-init's data sources for a VMI, as KubeVirt provides them: NoCloud (volume label
// "cidata": user-data, meta-data, network-config) and ConfigDrive (label "config-2": OpenStack's
// openstack/latest/{user_data, meta_data.json, network_data.json}). Pure: the ISO is made elsewhere,
// and Secrets the source references are read before (cloud-init-secrets.ts).
import { VmiConversionError } from "../converter/conversion-error.js";
import { cloudInitHostname, noCloudMetaData, numberedPublicKeys } from "./cloud-init-meta-data.js";

/** What the guest learns about itself: instance-id (the VMI's uid) and its hostname. */
export interface CloudInitIdentity {
  instanceId: string;
  hostname: string;
}

/** A cloudInitNoCloud / cloudInitConfigDrive source (the two share their shape in KubeVirt's API). */
export interface CloudInitData {
  userData?: string;
  userDataBase64?: string;
  secretRef?: { name?: string };
  networkData?: string;
  networkDataBase64?: string;
  networkDataSecretRef?: { name?: string };
}

export const NOCLOUD_LABEL = "cidata";
export const CONFIG_DRIVE_LABEL = "config-2";

function decodeBase64(volumeName: string, field: string, text: string): string {
  const compact = text.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) {
    throw new VmiConversionError("InvalidSpec", `volume ${volumeName}: ${field} is not valid base64`);
  }
  return Buffer.from(compact, "base64").toString("utf8");
}

/** One of the plain or base64 fields, or undefined when neither is set; both at once is an error. */
function pickText(
  volumeName: string,
  plain: { field: string; value: string | undefined },
  base64: { field: string; value: string | undefined },
): string | undefined {
  if (plain.value !== undefined && base64.value !== undefined) {
    throw new VmiConversionError(
      "InvalidSpec",
      `volume ${volumeName}: set ${plain.field} or ${base64.field}, not both`,
    );
  }
  if (base64.value !== undefined) return decodeBase64(volumeName, base64.field, base64.value);
  return plain.value;
}

/**
 * The user data and network data of a source. Secret references are read from the launcher pod's
 * volume before (cloud-init-secrets.ts withSecretData), so none is left here.
 */
function cloudInitTexts(
  volumeName: string,
  data: CloudInitData,
): { userData?: string; networkData?: string } {
  for (const field of ["secretRef", "networkDataSecretRef"] as const) {
    if (data[field] !== undefined) {
      throw new Error(
        `volume ${volumeName}: cloud-init ${field} was not read from the launcher pod's volume`,
      );
    }
  }
  const userData = pickText(
    volumeName,
    { field: "userData", value: data.userData },
    { field: "userDataBase64", value: data.userDataBase64 },
  );
  const networkData = pickText(
    volumeName,
    { field: "networkData", value: data.networkData },
    { field: "networkDataBase64", value: data.networkDataBase64 },
  );
  return {
    ...(userData === undefined ? {} : { userData }),
    ...(networkData === undefined ? {} : { networkData }),
  };
}

/**
 * NoCloud's files: user-data (empty when not given: cloud-init requires the file), meta-data (with the
 * access credentials' public keys, as KubeVirt puts them there: the user's user-data is left as it is),
 * network-config.
 */
export function noCloudFiles(
  volumeName: string,
  data: CloudInitData,
  identity: CloudInitIdentity,
  publicKeys: readonly string[] = [],
): Map<string, string> {
  const { userData, networkData } = cloudInitTexts(volumeName, data);
  const files = new Map<string, string>([
    ["user-data", userData ?? ""],
    ["meta-data", noCloudMetaData(identity, publicKeys)],
  ]);
  if (networkData !== undefined) files.set("network-config", networkData);
  return files;
}

/** ConfigDrive's files under openstack/latest/ (meta_data.json with the public keys, if any). */
export function configDriveFiles(
  volumeName: string,
  data: CloudInitData,
  identity: CloudInitIdentity,
  publicKeys: readonly string[] = [],
): Map<string, string> {
  const { userData, networkData } = cloudInitTexts(volumeName, data);
  const hostname = cloudInitHostname(identity);
  const keys = numberedPublicKeys(publicKeys);
  const metaData = {
    uuid: identity.instanceId,
    hostname,
    name: hostname,
    ...(keys === undefined ? {} : { public_keys: keys }),
  };
  const files = new Map<string, string>([
    ["openstack/latest/meta_data.json", `${JSON.stringify(metaData)}\n`],
  ]);
  if (userData !== undefined) files.set("openstack/latest/user_data", userData);
  if (networkData !== undefined) files.set("openstack/latest/network_data.json", networkData);
  return files;
}
