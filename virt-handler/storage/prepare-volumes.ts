// A VMI's volumes made real in the VM's own directory, before its domain is defined: writable disks are
// copy-on-write overlays (base images are never written), cloud-init data becomes an ISO, kernelBoot
// names its kernel. Everything the VM owns lives in that directory, so removeVmFiles() is one rm.
// Preparing twice is safe: existing disks are kept (a guest's writes survive a retried start).
import { mkdir, rm } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import {
  type CloudInitKeyPropagation,
  isHotpluggableVolume,
  type VirtualMachineInstance,
} from "../../api/index.js";
import { ContainerDiskError, type ContainerDiskSource } from "../container-disk/index.js";
import { VmiConversionError } from "../converter/conversion-error.js";
import { propagatedPublicKeys } from "./access-credential-keys.js";
import type { LauncherPodVolumes } from "./cloud-init-secrets.js";
import { HostToolMissingError } from "./host-commands.js";
import { type PreparedKernelBoot, prepareKernelBoot } from "./kernel-boot.js";
import { pullSecretConfigs } from "./pull-secrets.js";
import { type PreparedDisk, prepareVolume } from "./volume-files.js";

export type { PreparedDisk } from "./volume-files.js";

export interface PreparedVolumes {
  /** By volume name. */
  disks: Map<string, PreparedDisk>;
  kernelBoot?: PreparedKernelBoot;
}

export interface PrepareVolumesOptions {
  /** The VM's private directory (created when missing); removeVmFiles() removes it. */
  vmDir: string;
  images: ContainerDiskSource;
  /** The VMI's launcher pod volumes, where the Secrets its cloud-init references are read from. */
  podVolumes?: LauncherPodVolumes | undefined;
}

// Volume names become file names in the VM directory.
const FILE_SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Turns what went wrong while preparing `what` into a VmiConversionError that names it. */
function asConversionError(what: string, error: unknown): VmiConversionError {
  if (error instanceof VmiConversionError) return error;
  if (error instanceof ContainerDiskError || error instanceof HostToolMissingError) {
    return new VmiConversionError(error.reason, `${what}: ${error.message}`, { cause: error });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new VmiConversionError("VolumePreparationFailed", `${what}: ${detail}`, { cause: error });
}

export async function prepareVolumes(
  vmi: VirtualMachineInstance,
  options: PrepareVolumesOptions,
): Promise<PreparedVolumes> {
  const uid = vmi.metadata?.uid;
  const name = vmi.metadata?.name;
  if (!uid || !name)
    throw new VmiConversionError("InvalidSpec", "the VMI has no metadata.uid or metadata.name");
  const vmDir = resolve(options.vmDir);
  await mkdir(vmDir, { recursive: true });
  const identity = { instanceId: uid, hostname: vmi.spec.hostname || name };
  const publicKeys = await accessCredentialKeys(vmi, options.podVolumes);
  let dockerConfigJsons: string[];
  try {
    dockerConfigJsons = await pullSecretConfigs(options.podVolumes);
  } catch (error) {
    throw asConversionError("the launcher pod's imagePullSecrets", error);
  }
  const disks = new Map<string, PreparedDisk>();
  try {
    for (const volume of vmi.spec.volumes ?? []) {
      if (!FILE_SAFE_NAME.test(volume.name)) {
        throw new VmiConversionError("InvalidSpec", `volume name "${volume.name}" is not a valid name`);
      }
      // Attached once the domain runs, through its attachment pod (domain/hotplug-disks.ts).
      if (isHotpluggableVolume(volume)) continue;
      try {
        const { podVolumes, images } = options;
        const context = { vmDir, images, identity, podVolumes, publicKeys, dockerConfigJsons };
        disks.set(volume.name, await prepareVolume(volume, context));
      } catch (error) {
        throw asConversionError(`volume ${volume.name}`, error);
      }
    }
    let kernelBoot: PreparedKernelBoot | undefined;
    try {
      kernelBoot = await prepareKernelBoot(vmi, { vmDir, images: options.images, dockerConfigJsons });
    } catch (error) {
      throw asConversionError("kernelBoot", error);
    }
    return kernelBoot === undefined ? { disks } : { disks, kernelBoot };
  } catch (error) {
    await closeOpenedDisks(disks);
    throw error;
  }
}

/** Closes the files opened for QEMU (claims' disks): once libvirt holds its own, or when a start is given up. */
export async function closeOpenedDisks(disks: ReadonlyMap<string, PreparedDisk>): Promise<void> {
  await Promise.all([...disks.values()].map((disk) => disk.opened?.file.close()));
}

/** The public keys of spec.accessCredentials, read once for all the VMI's cloud-init volumes. */
async function accessCredentialKeys(
  vmi: VirtualMachineInstance,
  podVolumes: LauncherPodVolumes | undefined,
): Promise<Record<CloudInitKeyPropagation, string[]>> {
  try {
    return {
      noCloud: await propagatedPublicKeys(vmi.spec, "noCloud", podVolumes),
      configDrive: await propagatedPublicKeys(vmi.spec, "configDrive", podVolumes),
    };
  } catch (error) {
    throw asConversionError("spec.accessCredentials", error);
  }
}

/** Removes the VM's directory and everything in it (overlays, ISOs, pinned image files); idempotent. */
export async function removeVmFiles(vmDir: string): Promise<void> {
  const dir = resolve(vmDir);
  if (!isAbsolute(vmDir) || dir === "/") throw new Error(`refusing to remove "${vmDir}": not a VM directory`);
  await rm(dir, { recursive: true, force: true });
}
