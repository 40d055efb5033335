/**
 * How `virtctl create vm` sizes a VM, as KubeVirt's does (pkg/virtctl/create/vm): `--memory`
 * (512Mi unless an instancetype gives it), `--instancetype [kind/]name`, `--preference
 * [kind/]name`, and inference from a volume. Without `--instancetype` or `--memory`, an
 * instancetype and a preference are inferred from the boot volume when it can carry them (a PVC:
 * its `instancetype.kubevirt.io/default-instancetype` labels), silently: the VM asks the server
 * to ignore a failed inference (`inferFromVolumeFailurePolicy: Ignore`) and keeps its 512Mi to
 * fall back on. Asked for explicitly (`--infer-instancetype`, `--infer-instancetype-from=VOL`),
 * inference must work, and the instancetype gives the memory.
 */
import type { VirtualMachine } from "../../api/index.js";
import { CliError } from "../errors/cli-error.js";

type Matcher = NonNullable<VirtualMachine["spec"]["instancetype"]>;
type TemplateSpec = NonNullable<VirtualMachine["spec"]["template"]["spec"]>;

/** The sizing flags as commander gives them (`--infer-instancetype` alone is `true`). */
export interface SizingFlags {
  readonly instancetype?: string | undefined;
  readonly preference?: string | undefined;
  readonly inferInstancetype?: string | boolean | undefined;
  readonly inferInstancetypeFrom?: string | undefined;
  readonly inferPreference?: string | boolean | undefined;
  readonly inferPreferenceFrom?: string | undefined;
}

/** Flags that exclude each other, as cobra's MarkFlagsMutuallyExclusive groups in KubeVirt's. */
const EXCLUSIVE_GROUPS: readonly (readonly string[])[] = [
  ["memory", "instancetype", "infer-instancetype", "infer-instancetype-from"],
  ["preference", "infer-preference", "infer-preference-from"],
];

/** Refuses two flags of one group, with cobra's message. `given` holds the flags on the command line. */
export function checkExclusiveFlags(given: ReadonlySet<string>): void {
  for (const group of EXCLUSIVE_GROUPS) {
    const set = group.filter((flag) => given.has(flag)).sort();
    if (set.length > 1)
      throw new CliError(
        `if any flags in the group [${group.join(" ")}] are set none of the others can be; [${set.join(" ")}] were all set`,
      );
  }
}

const INSTANCETYPE_KINDS = ["virtualmachineinstancetype", "virtualmachineclusterinstancetype"];
const PREFERENCE_KINDS = ["virtualmachinepreference", "virtualmachineclusterpreference"];

/** `--instancetype [kind/]name`: no kind means the cluster kind (the VM defaults fill it in). */
export function instancetypeMatcher(text: string): Matcher {
  return matcher("instancetype", text, INSTANCETYPE_KINDS);
}

export function preferenceMatcher(text: string): Matcher {
  return matcher("preference", text, PREFERENCE_KINDS);
}

function matcher(flag: "instancetype" | "preference", text: string, kinds: readonly string[]): Matcher {
  const parts = text.split("/");
  if (parts.length > 2) throw flagError(flag, `invalid count ${parts.length - 1} of slashes in prefix/name`);
  const [first = "", second] = parts;
  const name = second ?? first;
  const kind = second === undefined ? "" : first.toLowerCase();
  if (name === "") throw flagError(flag, "name cannot be empty");
  if (kind !== "" && !kinds.includes(kind))
    throw flagError(flag, `invalid ${flag} kind "${kind}", supported values are: ${kinds.join(", ")}`);
  return kind === "" ? { name } : { name, kind };
}

export function flagError(flag: string, message: string): CliError {
  return new CliError(`failed to parse "--${flag}" flag: ${message}`);
}

/** What one inference flag pair asks for: nothing, the boot volume, or a named volume. */
type Inference = { readonly explicit: boolean; readonly volume?: string } | undefined;

/**
 * `--infer-X` (alone or `=true`: the boot volume; `=false`: no inference; `=VOL`: that volume) or
 * `--infer-X-from=VOL`; neither: implicit inference from the boot volume.
 */
function inferenceOf(flag: string | boolean | undefined, from: string | undefined): Inference {
  if (from !== undefined) return { explicit: true, volume: from };
  if (flag === undefined) return { explicit: false };
  if (flag === false || flag === "false") return undefined;
  if (flag === true || flag === "true") return { explicit: true };
  return { explicit: true, volume: flag };
}

/**
 * Sets `spec.instancetype` / `spec.preference` from the inference flags, once the volumes are in
 * the template. `memoryGiven`: `--memory` was on the command line (then no instancetype is
 * inferred, as in KubeVirt). `bootVolume`: the volume of the lowest boot order, if any.
 */
export function applyInference(
  vm: VirtualMachine,
  flags: SizingFlags,
  memoryGiven: boolean,
  bootVolume: string | undefined,
): void {
  const template = vm.spec.template.spec as TemplateSpec;
  const instancetype = inferenceOf(flags.inferInstancetype, flags.inferInstancetypeFrom);
  if (instancetype && flags.instancetype === undefined && !memoryGiven) {
    const inferred = inferredMatcher(template, instancetype, bootVolume);
    if (inferred) {
      vm.spec.instancetype = inferred;
      // Explicit: the instancetype gives the memory. Implicit: the default stays as the fallback.
      if (instancetype.explicit) delete template.domain.memory;
    }
  }
  const preference = inferenceOf(flags.inferPreference, flags.inferPreferenceFrom);
  if (preference && flags.preference === undefined) {
    const inferred = inferredMatcher(template, preference, bootVolume);
    if (inferred) vm.spec.preference = inferred;
  }
}

/** The matcher for one inference; an implicit one that cannot work is dropped without a word. */
function inferredMatcher(
  template: TemplateSpec,
  inference: NonNullable<Inference>,
  bootVolume: string | undefined,
): Matcher | undefined {
  try {
    const volume = inferenceVolume(template, inference.volume ?? bootVolume);
    return inference.explicit
      ? { inferFromVolume: volume }
      : { inferFromVolume: volume, inferFromVolumeFailurePolicy: "Ignore" };
  } catch (error) {
    if (inference.explicit) throw error;
    return undefined;
  }
}

function inferenceVolume(template: TemplateSpec, wanted: string | undefined): string {
  const volumes = template.volumes ?? [];
  const name = wanted ?? volumes[0]?.name;
  if (name === undefined)
    throw new CliError("at least one volume is needed to infer an instance type or preference");
  const volume = volumes.find((candidate) => candidate.name === name);
  if (!volume) throw new CliError(`there is no volume with name "${name}"`);
  if (volume.persistentVolumeClaim === undefined && volume.dataVolume === undefined)
    throw new CliError(
      "inference of instancetype or preference works only with datasources, datavolumes or pvcs",
    );
  return name;
}
