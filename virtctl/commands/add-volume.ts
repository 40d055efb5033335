/**
 * `virtctl addvolume NAME --volume-name=DV_OR_PVC [--disk-name] [--serial] [--cache]
 * [--disk-type disk|lun] [--bus scsi|virtio] [--dry-run]`: hotplugs a DataVolume or claim into the
 * VM (kept in its spec; its VMI gets it while running), or into a VMI of its own when no VM has
 * that name, as KubeVirt's virtctl does. `--persist` is KubeVirt's deprecated no-op.
 */
import { Command } from "commander";
import type { ApiClient } from "../api/api-client.js";
import { dataVolumePath, persistentVolumeClaimPath } from "../api/kubevirt-paths.js";
import { CliError } from "../errors/cli-error.js";
import { type CommandDeps, connectionFlagsOf } from "./command-deps.js";
import { DRY_RUN_NOTICE, requestVolumeChange } from "./volume-request.js";

interface AddVolumeFlags {
  readonly volumeName: string;
  readonly diskName?: string;
  readonly serial?: string;
  readonly cache?: string;
  readonly diskType: string;
  readonly bus: string;
  readonly dryRun: boolean;
  readonly persist: boolean;
}

/** A DNS-1035 label's limit: the name is the volume's and the disk's in the VM spec. */
const MAX_NAME_LENGTH = 63;
const CACHE_MODES = ["none", "writethrough", "writeback"];

export function addVolumeCommand(deps: CommandDeps): Command {
  return new Command("addvolume")
    .description("Add a volume to a running VM")
    .argument("<name>", "the VirtualMachine (or a VirtualMachineInstance without one)")
    .requiredOption("--volume-name <name>", "name of the volume source, either DV or PVC")
    .option("--disk-name <name>", "name used in the disk/volume section of spec (default: --volume-name)")
    .option("--serial <serial>", "serial number you want to assign to the disk (default: the disk name)")
    .option(
      "--cache <mode>",
      "caching options attribute control the cache mechanism (none, writethrough, writeback)",
    )
    .option("--disk-type <type>", "specifies disk type to be hotplugged (disk/lun)", "disk")
    .option("--bus <bus>", "specifies disk bus (scsi, or virtio for a disk)", "scsi")
    .option("--dry-run", "let the server check the request without changing anything", false)
    .option(
      "--persist",
      "[deprecated] this flag has no effect and will be removed in a future release",
      false,
    )
    .action(async (name: string, flags: AddVolumeFlags, command: Command) => {
      const diskName = flags.diskName ?? flags.volumeName;
      const disk = diskOf(diskName, flags);
      const api = deps.connect(connectionFlagsOf(command));
      if (flags.dryRun) deps.io.stdout.write(DRY_RUN_NOTICE);
      const volumeSource = await volumeSourceOf(api, flags.volumeName);
      await requestVolumeChange(api, ["virtualmachines", "virtualmachineinstances"], name, "addvolume", {
        name: diskName,
        disk,
        volumeSource,
        ...(flags.dryRun ? { dryRun: ["All"] } : {}),
      });
      deps.io.stdout.write(
        `Successfully submitted add volume request to VM ${name} for volume ${flags.volumeName}\n`,
      );
    });
}

/** The disk to add, from the flags, refused with KubeVirt's messages before anything is asked. */
function diskOf(diskName: string, flags: AddVolumeFlags): Record<string, unknown> {
  if (diskName.length > MAX_NAME_LENGTH) {
    throw new CliError(
      flags.diskName === undefined
        ? `Invalid volume name ${flags.volumeName}, must not exceed ${MAX_NAME_LENGTH} characters. Use in conjunction with --disk-name to specify a shorter name`
        : `Invalid disk name ${diskName}, must not exceed ${MAX_NAME_LENGTH} characters`,
    );
  }
  let target: Record<string, unknown>;
  switch (flags.diskType) {
    case "disk":
      if (flags.bus !== "scsi" && flags.bus !== "virtio") {
        throw new CliError(
          `Invalid bus type '${flags.bus}' for disk. Only 'scsi' and 'virtio' are supported.`,
        );
      }
      target = { disk: { bus: flags.bus } };
      break;
    case "lun":
      if (flags.bus !== "scsi") {
        throw new CliError(`Invalid bus type '${flags.bus}' for LUN disk. Only 'scsi' bus is supported.`);
      }
      target = { lun: { bus: flags.bus } };
      break;
    default:
      throw new CliError(`Invalid disk type '${flags.diskType}'. Only LUN and Disk are supported.`);
  }
  if (flags.cache !== undefined && !CACHE_MODES.includes(flags.cache)) {
    throw new CliError(`error adding volume, invalid cache value ${flags.cache}`);
  }
  return {
    ...target,
    serial: flags.serial || diskName,
    ...(flags.cache ? { cache: flags.cache } : {}),
  };
}

/** A DataVolume of that name if there is one (KubeVirt asks CDI first), else a claim. */
async function volumeSourceOf(api: ApiClient, volumeName: string): Promise<Record<string, unknown>> {
  const dataVolume = await api.request("GET", dataVolumePath(api.namespace, volumeName));
  if (dataVolume.code === 200) return { dataVolume: { name: volumeName, hotpluggable: true } };
  const claim = await api.request("GET", persistentVolumeClaimPath(api.namespace, volumeName));
  if (claim.code === 200) return { persistentVolumeClaim: { claimName: volumeName, hotpluggable: true } };
  throw new CliError(
    `error adding volume, Volume ${volumeName} is not a DataVolume or PersistentVolumeClaim`,
  );
}
