/**
 * `virtctl create instancetype`: a VirtualMachineClusterInstancetype (or, `--namespaced` or with
 * `-n`, a VirtualMachineInstancetype) manifest from flags, as KubeVirt's virtctl builds it
 * (pkg/virtctl/create/instancetype): `--cpu` and `--memory` are required, the name defaults to
 * `clusterinstancetype-xxxxx` / `instancetype-xxxxx`. Pure apart from the random name.
 */
import { randomInt } from "node:crypto";
import {
  INSTANCETYPE_API_VERSION,
  Quantity,
  type VirtualMachineClusterInstancetype,
  type VirtualMachineInstancetype,
} from "../../api/index.js";
import { CliError } from "../errors/cli-error.js";
import { flagError } from "./vm-sizing.js";

export interface CreateInstancetypeFlags {
  readonly name?: string | undefined;
  readonly cpu?: string | undefined;
  readonly memory?: string | undefined;
  readonly iothreadspolicy?: string | undefined;
  readonly namespaced?: boolean | undefined;
  /** `-n`: the manifest is namespaced, in that namespace (KubeVirt's behaviour when the namespace is set). */
  readonly namespace?: string | undefined;
}

const IO_THREADS_POLICIES = ["auto", "shared"];

export function buildInstancetypeManifest(
  flags: CreateInstancetypeFlags,
  randomSuffix: () => string = generatedSuffix,
): VirtualMachineInstancetype | VirtualMachineClusterInstancetype {
  if (flags.cpu === undefined || flags.memory === undefined) {
    const missing = [flags.cpu === undefined ? "cpu" : "", flags.memory === undefined ? "memory" : ""];
    throw new CliError(
      `required flag(s) ${missing
        .filter(Boolean)
        .map((flag) => `"${flag}"`)
        .join(", ")} not set`,
    );
  }
  const cpu = Number(flags.cpu);
  if (!/^\d+$/.test(flags.cpu) || !Number.isSafeInteger(cpu) || cpu > 0xffffffff)
    throw new CliError(`invalid argument "${flags.cpu}" for "--cpu" flag: not an unsigned integer`);
  if (cpu <= 0) throw new CliError("cpu value must be greater than zero");
  const memory = Quantity.tryParse(flags.memory);
  if (!memory || memory.sign() <= 0)
    throw flagError("memory", `"${flags.memory}" is not a memory size such as 512Mi or 2Gi`);
  const policy = flags.iothreadspolicy;
  if (policy !== undefined && !IO_THREADS_POLICIES.includes(policy))
    throw flagError("iothreadspolicy", "IOThread must be of value auto or shared");
  const namespaced = flags.namespaced === true || flags.namespace !== undefined;
  const name = flags.name || `${namespaced ? "instancetype" : "clusterinstancetype"}-${randomSuffix()}`;
  return {
    apiVersion: INSTANCETYPE_API_VERSION,
    kind: namespaced ? "VirtualMachineInstancetype" : "VirtualMachineClusterInstancetype",
    metadata: { name, ...(namespaced && flags.namespace ? { namespace: flags.namespace } : {}) },
    spec: {
      cpu: { guest: cpu },
      memory: { guest: flags.memory },
      ...(policy === undefined ? {} : { ioThreadsPolicy: policy as "auto" | "shared" }),
    },
  } as VirtualMachineInstancetype | VirtualMachineClusterInstancetype;
}

/** Five characters of apimachinery's rand.String alphabet, as KubeVirt's generated names. */
export function generatedSuffix(): string {
  const alphabet = "bcdfghjklmnpqrstvwxz2456789";
  let suffix = "";
  for (let i = 0; i < 5; i++) suffix += alphabet[randomInt(alphabet.length)];
  return suffix;
}
