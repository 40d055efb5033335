/**
 * `virtctl create vm`: a VirtualMachine manifest from flags, as KubeVirt's virtctl builds it
 * (pkg/virtctl/create/vm): runStrategy Always and a 180 s grace period unless told otherwise,
 * a generated `vm-xxxxx` name, containerDisk volumes named `<vm>-containerdisk-<i>` (a disk is
 * listed only to give a boot order; the defaults add the rest), one `cloudinitdisk` NoCloud
 * volume, and guest memory (512Mi when not given, as KubeVirt without an instancetype).
 * `--volume-pvc` adds PVC volumes (after the containerDisks, as KubeVirt orders them); sizing by
 * instancetype and preference is vm-sizing.ts. Pure apart from the random name.
 */
import { randomInt } from "node:crypto";
import { Quantity, RUN_STRATEGIES, type VirtualMachine } from "../../api/index.js";
import { CliError } from "../errors/cli-error.js";
import { parseFlagParams } from "./flag-params.js";
import {
  applyInference,
  checkExclusiveFlags,
  flagError,
  instancetypeMatcher,
  preferenceMatcher,
  type SizingFlags,
} from "./vm-sizing.js";

export interface CreateVmFlags extends SizingFlags {
  readonly name?: string | undefined;
  readonly runStrategy: string;
  readonly terminationGracePeriod: number;
  readonly memory: string;
  readonly volumeContainerdisk: readonly string[];
  readonly volumePvc?: readonly string[] | undefined;
  readonly cloudInitUserData?: string | undefined;
  readonly cloudInitNetworkData?: string | undefined;
  /** The flags given on the command line (not defaulted), by their long names: `memory`, `instancetype`... */
  readonly given?: ReadonlySet<string> | undefined;
}

export const CREATE_VM_DEFAULTS = {
  runStrategy: "Always",
  terminationGracePeriod: 180,
  memory: "512Mi",
} as const;

/** The run strategies `create vm` offers (KubeVirt's list; WaitAsReceiver is for migrations only). */
const OFFERED_RUN_STRATEGIES = RUN_STRATEGIES.filter((strategy) => strategy !== "WaitAsReceiver");
const CONTAINERDISK_FLAG = "volume-containerdisk";
const PVC_FLAG = "volume-pvc";
const CLOUD_INIT_DISK = "cloudinitdisk";

type TemplateSpec = NonNullable<VirtualMachine["spec"]["template"]["spec"]>;
type Volume = NonNullable<TemplateSpec["volumes"]>[number];
type Disk = NonNullable<TemplateSpec["domain"]["devices"]["disks"]>[number];

export function buildVmManifest(
  flags: CreateVmFlags,
  randomName: () => string = generatedName,
): VirtualMachine {
  const name = flags.name || randomName();
  const runStrategy = OFFERED_RUN_STRATEGIES.find((strategy) => strategy === flags.runStrategy);
  if (!runStrategy) {
    throw new CliError(
      `invalid --run-strategy "${flags.runStrategy}", supported values are: ${OFFERED_RUN_STRATEGIES.join(", ")}`,
    );
  }
  if (flags.terminationGracePeriod < 0) throw new CliError("--termination-grace-period must be 0 or more");
  const given = flags.given ?? new Set<string>();
  checkExclusiveFlags(given);
  const volumes: Volume[] = [];
  const disks: Disk[] = [];
  flags.volumeContainerdisk.forEach((text, index) => {
    const params = parseFlagParams(CONTAINERDISK_FLAG, text, ["src", "name", "bootorder"]);
    if (!params.src)
      throw new CliError(`failed to parse "--${CONTAINERDISK_FLAG}=${text}": src must be specified`);
    const volumeName = params.name ?? `${name}-containerdisk-${index}`;
    addVolume(volumes, CONTAINERDISK_FLAG, { name: volumeName, containerDisk: { image: params.src } });
    if (params.bootorder !== undefined)
      disks.push(bootDisk(disks, CONTAINERDISK_FLAG, volumeName, params.bootorder));
  });
  for (const text of flags.volumePvc ?? []) addPvcVolume(volumes, disks, text);
  const cloudInit = cloudInitSource(flags);
  if (cloudInit)
    addVolume(volumes, "cloud-init-user-data", { name: CLOUD_INIT_DISK, cloudInitNoCloud: cloudInit });
  const vm = {
    apiVersion: "kubevirt.io/v1",
    kind: "VirtualMachine",
    metadata: { name },
    spec: {
      runStrategy,
      ...(flags.instancetype === undefined ? {} : { instancetype: instancetypeMatcher(flags.instancetype) }),
      ...(flags.preference === undefined ? {} : { preference: preferenceMatcher(flags.preference) }),
      template: {
        spec: {
          domain: {
            devices: disks.length > 0 ? { disks } : {},
            // The instancetype gives the memory: a VM setting it too would conflict with it.
            ...(flags.instancetype === undefined ? { memory: { guest: guestMemory(flags.memory) } } : {}),
          },
          terminationGracePeriodSeconds: flags.terminationGracePeriod,
          ...(volumes.length > 0 ? { volumes } : {}),
        },
      },
    },
  } as VirtualMachine;
  applyInference(vm, flags, given.has("memory"), lowestBootOrder(disks));
  return vm;
}

/** `--volume-pvc src:CLAIM[,name:NAME][,bootorder:N]`: the claim in the VM's own namespace. */
function addPvcVolume(volumes: Volume[], disks: Disk[], text: string): void {
  const params = parseFlagParams(PVC_FLAG, text, ["src", "name", "bootorder"]);
  if (!params.src) throw flagError(PVC_FLAG, "src must be specified");
  const [namespace, claimName = ""] = params.src.includes("/") ? params.src.split("/", 2) : ["", params.src];
  if (namespace !== "") throw flagError(PVC_FLAG, `not allowed to specify namespace of pvc "${claimName}"`);
  const volumeName = params.name ?? claimName;
  addVolume(volumes, PVC_FLAG, { name: volumeName, persistentVolumeClaim: { claimName } });
  if (params.bootorder !== undefined) disks.push(bootDisk(disks, PVC_FLAG, volumeName, params.bootorder));
}

/** The disk KubeVirt infers from when boot orders are given: the lowest one. */
function lowestBootOrder(disks: readonly Disk[]): string | undefined {
  return [...disks].sort((a, b) => (a.bootOrder ?? 0) - (b.bootOrder ?? 0))[0]?.name;
}

/** KubeVirt's generated names: `vm-` and five characters of apimachinery's rand.String alphabet. */
export function generatedName(): string {
  const alphabet = "bcdfghjklmnpqrstvwxz2456789";
  let suffix = "";
  for (let i = 0; i < 5; i++) suffix += alphabet[randomInt(alphabet.length)];
  return `vm-${suffix}`;
}

function addVolume(volumes: Volume[], flag: string, volume: Volume): void {
  if (volumes.some((existing) => existing.name === volume.name)) {
    throw new CliError(`--${flag}: there is already a volume named "${volume.name}"`);
  }
  volumes.push(volume);
}

function bootDisk(disks: readonly Disk[], flag: string, name: string, text: string): Disk {
  const bootOrder = Number(text);
  if (!Number.isSafeInteger(bootOrder) || bootOrder <= 0) {
    throw new CliError(`--${flag}: bootorder must be an integer greater than 0`);
  }
  if (disks.some((disk) => disk.bootOrder === bootOrder)) {
    throw new CliError(`--${flag}: bootorder ${bootOrder} was given more than once`);
  }
  return { name, bootOrder };
}

function cloudInitSource(
  flags: CreateVmFlags,
): { userDataBase64?: string; networkDataBase64?: string } | undefined {
  const userData = checkedBase64("cloud-init-user-data", flags.cloudInitUserData);
  const networkData = checkedBase64("cloud-init-network-data", flags.cloudInitNetworkData);
  if (userData === undefined && networkData === undefined) return undefined;
  return {
    ...(userData === undefined ? {} : { userDataBase64: userData }),
    ...(networkData === undefined ? {} : { networkDataBase64: networkData }),
  };
}

function checkedBase64(flag: string, value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  const canonical = /^[A-Za-z0-9+/]*={0,2}$/.test(value) && value.length % 4 === 0;
  if (!canonical)
    throw new CliError(`--${flag} must be base64 (e.g. the output of \`base64 -w0 user-data\`)`);
  return value;
}

function guestMemory(text: string): string {
  const quantity = Quantity.tryParse(text);
  if (!quantity || quantity.sign() <= 0) {
    throw new CliError(`--memory "${text}" is not a memory size such as 512Mi or 2Gi`);
  }
  return text;
}
