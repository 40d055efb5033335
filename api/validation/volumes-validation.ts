import { Quantity } from "../../runtime/quantity/quantity.js";
import type { VirtualMachineInstanceSpec } from "../vmi/vmi-spec.js";
import { type CloudInitSource, HOST_DISK_TYPES, sourcesOf, type Volume } from "../vmi/volumes.js";
import { type Cause, duplicate, invalid, notFound, required } from "./cause.js";
import { duplicatePositions } from "./duplicates.js";
import { child, index } from "./field-path.js";

/** KubeVirt's limit on inline cloud-init data; larger data belongs in a secret. */
export const CLOUD_INIT_MAX_BYTES = 2048;

/**
 * `spec.volumes` (virt-api's validateVolumes): unique names, exactly one source per volume,
 * cloud-init data that decodes and fits, host disks with a path and a known type, sizes that
 * parse, named config maps/secrets/service accounts, at most one service account volume.
 */
export function validateVolumes(field: string, spec: VirtualMachineInstanceSpec): Cause[] {
  const volumesField = child(field, "volumes");
  const volumes = spec.volumes ?? [];
  const causes: Cause[] = [];
  for (const { at, first } of duplicatePositions(volumes, (volume) => volume.name)) {
    causes.push(
      duplicate(
        child(index(volumesField, at), "name"),
        `${index(volumesField, at)} and ${index(volumesField, first)} must not have the same Name.`,
      ),
    );
  }
  volumes.forEach((volume, position) => {
    causes.push(...validateVolume(index(volumesField, position), volume));
  });
  const serviceAccounts = volumes.filter((volume) => volume.serviceAccount !== undefined).length;
  if (serviceAccounts > 1)
    causes.push(invalid(volumesField, `${volumesField} must have max one serviceAccount volume set`));
  const downwardMetrics = volumes.filter((volume) => volume.downwardMetrics !== undefined).length;
  if (downwardMetrics > 1)
    causes.push(invalid(volumesField, `${volumesField} must have max one downwardMetric volume set`));
  return causes;
}

function validateVolume(field: string, volume: Volume): Cause[] {
  const causes: Cause[] = [];
  if (sourcesOf(volume).length !== 1)
    causes.push(invalid(field, `${field} must have exactly one source type set`));
  if (volume.cloudInitNoCloud !== undefined) {
    causes.push(...validateCloudInit(child(field, "cloudInitNoCloud"), volume.cloudInitNoCloud));
  }
  if (volume.cloudInitConfigDrive !== undefined) {
    causes.push(...validateCloudInit(child(field, "cloudInitConfigDrive"), volume.cloudInitConfigDrive));
  }
  if (volume.containerDisk !== undefined && volume.containerDisk.image.trim() === "") {
    causes.push(required(child(field, "containerDisk", "image")));
  }
  if (volume.emptyDisk !== undefined)
    causes.push(...positiveSize(child(field, "emptyDisk", "capacity"), volume.emptyDisk.capacity));
  causes.push(...validateHostDisk(field, volume));
  if (volume.dataVolume !== undefined && volume.dataVolume.name === "") {
    causes.push(required(child(field, "dataVolume", "name"), "DataVolume 'name' must be set"));
  }
  if (volume.persistentVolumeClaim !== undefined && volume.persistentVolumeClaim.claimName === "") {
    causes.push(required(child(field, "persistentVolumeClaim", "claimName")));
  }
  if (volume.configMap !== undefined && !volume.configMap.name)
    causes.push(required(child(field, "configMap", "name")));
  if (volume.secret !== undefined && !volume.secret.secretName)
    causes.push(required(child(field, "secret", "secretName")));
  if (volume.serviceAccount !== undefined && !volume.serviceAccount.serviceAccountName) {
    causes.push(required(child(field, "serviceAccount", "serviceAccountName")));
  }
  return causes;
}

/** At most one user-data source and one network-data source, at least one of either; base64 decodes; 2 KiB each. */
function validateCloudInit(field: string, source: CloudInitSource): Cause[] {
  const causes: Cause[] = [];
  const userData = dataSources(
    field,
    source.userData,
    source.userDataBase64,
    source.secretRef?.name,
    "userDataBase64",
    causes,
  );
  const networkData = dataSources(
    field,
    source.networkData,
    source.networkDataBase64,
    source.networkDataSecretRef?.name,
    "networkDataBase64",
    causes,
  );
  if (userData.count > 1) causes.push(invalid(field, `${field} must have only one userdatasource set.`));
  if (networkData.count > 1)
    causes.push(invalid(field, `${field} must have only one networkdata source set.`));
  if (userData.bytes > CLOUD_INIT_MAX_BYTES) {
    causes.push(
      invalid(
        field,
        `${field} userdata exceeds ${CLOUD_INIT_MAX_BYTES} byte limit. Should use UserDataSecretRef for larger data.`,
      ),
    );
  }
  if (networkData.bytes > CLOUD_INIT_MAX_BYTES) {
    causes.push(
      invalid(
        field,
        `${field} networkdata exceeds ${CLOUD_INIT_MAX_BYTES} byte limit. Should use NetworkDataSecretRef for larger data.`,
      ),
    );
  }
  if (userData.count === 0 && networkData.count === 0) {
    causes.push(
      invalid(field, `${field} must have at least one userdatasource or one networkdatasource set.`),
    );
  }
  return causes;
}

function dataSources(
  field: string,
  inline: string | undefined,
  base64: string | undefined,
  secretName: string | undefined,
  base64Name: string,
  causes: Cause[],
): { count: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  if (secretName) count++;
  if (base64) {
    count++;
    const decoded = decodeBase64(base64);
    if (decoded === undefined)
      causes.push(
        invalid(child(field, base64Name), `${child(field, base64Name)} is not a valid base64 value.`),
      );
    bytes = decoded?.length ?? 0;
  }
  if (inline) {
    count++;
    bytes = Buffer.byteLength(inline, "utf8");
  }
  return { count, bytes };
}

/** Standard base64 with padding, as Go's base64.StdEncoding accepts it. */
function decodeBase64(text: string): Buffer | undefined {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  return Buffer.from(text, "base64");
}

function validateHostDisk(field: string, volume: Volume): Cause[] {
  const hostDisk = volume.hostDisk;
  if (hostDisk === undefined) return [];
  const causes: Cause[] = [];
  const hostDiskField = child(field, "hostDisk");
  if (hostDisk.path === "") {
    causes.push(
      notFound(
        child(hostDiskField, "path"),
        `${child(hostDiskField, "path")} is required for hostDisk volume`,
      ),
    );
  }
  if (!HOST_DISK_TYPES.some((type) => type === hostDisk.type)) {
    causes.push(
      invalid(
        child(hostDiskField, "type"),
        `${child(hostDiskField, "type")} has invalid value '${hostDisk.type}', allowed are 'Disk' or 'DiskOrCreate'`,
      ),
    );
  }
  if (hostDisk.capacity !== undefined) {
    const capacity = Quantity.tryParse(hostDisk.capacity);
    if (hostDisk.type === "Disk" && capacity !== undefined && !capacity.isZero()) {
      causes.push(
        invalid(
          child(hostDiskField, "capacity"),
          `${child(hostDiskField, "capacity")} is allowed to pass only with ${child(hostDiskField, "type")} equal to 'DiskOrCreate'`,
        ),
      );
    }
    causes.push(...positiveSize(child(hostDiskField, "capacity"), hostDisk.capacity));
  }
  return causes;
}

function positiveSize(field: string, value: string | number): Cause[] {
  const quantity = Quantity.tryParse(value);
  if (quantity === undefined)
    return [invalid(field, `${field} '${String(value)}': must be a quantity such as 1Gi`)];
  if (quantity.sign() <= 0) return [invalid(field, `${field} '${quantity.text}': must be greater than 0`)];
  return [];
}

/**
 * Every volume is used by a disk or a filesystem (checked for VMIs only: a VM's template gets a
 * plain disk for an unused volume when it becomes a VMI, see withVolumeDisks).
 */
export function validateVolumesHaveDisks(field: string, spec: VirtualMachineInstanceSpec): Cause[] {
  const used = new Set([
    ...(spec.domain.devices.disks ?? []).map((disk) => disk.name),
    ...(spec.domain.devices.filesystems ?? []).map((filesystem) => filesystem.name),
  ]);
  const causes: Cause[] = [];
  (spec.volumes ?? []).forEach((volume, position) => {
    if (volume.memoryDump !== undefined || used.has(volume.name)) return;
    const nameField = child(index(child(field, "volumes"), position), "name");
    const disksField = child(field, "domain", "devices", "disks");
    causes.push(
      invalid(nameField, `${nameField} '${volume.name}' not found in ${disksField} or filesystems.`),
    );
  });
  return causes;
}
