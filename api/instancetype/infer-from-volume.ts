/**
 * `inferFromVolume` on a VM's `spec.instancetype` / `spec.preference`, as KubeVirt's VM mutating
 * webhook resolves it (pkg/instancetype/infer): the named volume of the template leads to a claim
 * or a DataVolume whose `instancetype.kubevirt.io/default-*` labels give the matcher's name and
 * kind. The matcher is then replaced by just those two (KubeVirt keeps neither inferFromVolume nor
 * its failure policy). A failure KubeVirt calls ignorable (no label, a volume or source kind that
 * cannot carry one) drops the matcher under `inferFromVolumeFailurePolicy: Ignore`; every other
 * failure (no such volume, a claim that does not exist) refuses the VM, whatever the policy.
 *
 * The paths kubevirt-ts can take, in KubeVirt's order: a `persistentVolumeClaim` volume → the
 * claim; a `dataVolume` volume → the VM's dataVolumeTemplate of that name → its `pvc` clone
 * source's claim; else the DataVolume object → its own labels → its `pvc` clone source's claim;
 * a DataVolume that no longer exists → the claim of its name (it may have been garbage collected).
 * DataSources and VolumeSnapshots are not served here (DataVolume validation refuses `sourceRef`
 * and the `snapshot` source): where KubeVirt would read one, the VM is refused, saying so.
 */
import type { DataVolumeSpec } from "../vm/data-volume-template.js";
import type { VirtualMachine } from "../vm/virtual-machine.js";

export const DEFAULT_INSTANCETYPE_LABEL = "instancetype.kubevirt.io/default-instancetype";
export const DEFAULT_INSTANCETYPE_KIND_LABEL = "instancetype.kubevirt.io/default-instancetype-kind";
export const DEFAULT_PREFERENCE_LABEL = "instancetype.kubevirt.io/default-preference";
export const DEFAULT_PREFERENCE_KIND_LABEL = "instancetype.kubevirt.io/default-preference-kind";

type Labels = Readonly<Record<string, string>>;

/** What inference reads from the API server; undefined when the object does not exist. */
export interface InferenceSource {
  claimLabels(namespace: string, name: string): Promise<Labels | undefined>;
  dataVolume(
    namespace: string,
    name: string,
  ): Promise<{ readonly labels?: Labels; readonly spec?: DataVolumeSpec } | undefined>;
}

/** Why a matcher could not be inferred; `ignorable` when KubeVirt lets the Ignore policy drop it. */
export class InferenceError extends Error {
  readonly ignorable: boolean;

  constructor(message: string, ignorable: boolean, options?: ErrorOptions) {
    super(message, options);
    this.name = "InferenceError";
    this.ignorable = ignorable;
  }
}

type Reference = "instancetype" | "preference";

interface LabelNames {
  readonly name: string;
  readonly kind: string;
}

const LABELS: Record<Reference, LabelNames> = {
  instancetype: { name: DEFAULT_INSTANCETYPE_LABEL, kind: DEFAULT_INSTANCETYPE_KIND_LABEL },
  preference: { name: DEFAULT_PREFERENCE_LABEL, kind: DEFAULT_PREFERENCE_KIND_LABEL },
};

/** Whether the VM has a matcher to infer (the mutating webhook reads nothing otherwise). */
export function needsInference(vm: VirtualMachine): boolean {
  return Boolean(vm.spec?.instancetype?.inferFromVolume || vm.spec?.preference?.inferFromVolume);
}

/**
 * The VM with its instancetype, then its preference, inferred (a copy; the VM given is left
 * alone), reading the objects of `namespace` (the VM's). Throws an InferenceError, with
 * KubeVirt's message, when the VM is to be refused.
 */
export async function inferMatchers(
  vm: VirtualMachine,
  source: InferenceSource,
  namespace = vm.metadata?.namespace ?? "",
): Promise<VirtualMachine> {
  const inferred = structuredClone(vm);
  for (const reference of ["instancetype", "preference"] as const) {
    await inferMatcher(inferred, namespace, reference, source);
  }
  return inferred;
}

async function inferMatcher(
  vm: VirtualMachine,
  namespace: string,
  reference: Reference,
  source: InferenceSource,
) {
  const matcher = vm.spec[reference];
  const volume = matcher?.inferFromVolume;
  if (matcher === undefined || !volume) return;
  const ignoreFailure = matcher.inferFromVolumeFailurePolicy === "Ignore";
  let found: { name: string; kind: string | undefined };
  try {
    found = await fromVolume(vm, namespace, volume, LABELS[reference], source);
  } catch (error) {
    if (error instanceof InferenceError && error.ignorable && ignoreFailure) {
      delete vm.spec[reference];
      return;
    }
    throw error;
  }
  // An Ignore policy means the VM carried a fallback memory (virtctl's 512Mi) in case inference
  // failed; it did not, and that memory would now conflict with the instancetype's.
  if (reference === "instancetype" && ignoreFailure) delete vm.spec.template?.spec?.domain?.memory;
  vm.spec[reference] = { name: found.name, ...(found.kind ? { kind: found.kind } : {}) };
}

async function fromVolume(
  vm: VirtualMachine,
  namespace: string,
  volumeName: string,
  labels: LabelNames,
  source: InferenceSource,
) {
  const volume = vm.spec.template?.spec?.volumes?.find((candidate) => candidate.name === volumeName);
  if (volume === undefined) {
    throw new InferenceError(`unable to find volume ${volumeName} to infer defaults`, false);
  }
  if (volume.persistentVolumeClaim !== undefined) {
    return fromClaim(namespace, volume.persistentVolumeClaim.claimName, labels, source);
  }
  if (volume.dataVolume !== undefined) {
    return fromDataVolume(vm, namespace, volume.dataVolume.name, labels, source);
  }
  throw new InferenceError(
    `unable to infer defaults from volume ${volumeName} as type is not supported`,
    true,
  );
}

function fromLabels(found: Labels | undefined, labels: LabelNames) {
  const name = found?.[labels.name];
  if (name === undefined) {
    throw new InferenceError(`unable to find required ${labels.name} label on the volume`, true);
  }
  return { name, kind: found?.[labels.kind] };
}

async function fromClaim(namespace: string, name: string, labels: LabelNames, source: InferenceSource) {
  const found = await source.claimLabels(namespace, name);
  // The API server's NotFound message, as KubeVirt passes its GET error on.
  if (found === undefined) throw new InferenceError(`persistentvolumeclaims "${name}" not found`, false);
  return fromLabels(found, labels);
}

async function fromDataVolume(
  vm: VirtualMachine,
  namespace: string,
  name: string,
  labels: LabelNames,
  source: InferenceSource,
) {
  // As KubeVirt: a template's spec only (its labels are not read), before any DataVolume object.
  const template = vm.spec.dataVolumeTemplates?.find((candidate) => candidate.metadata?.name === name);
  if (template !== undefined) return fromDataVolumeSpec(template.spec, namespace, labels, source);
  const dataVolume = await source.dataVolume(namespace, name);
  if (dataVolume === undefined) return fromClaim(namespace, name, labels, source);
  try {
    return fromLabels(dataVolume.labels, labels);
  } catch (error) {
    if (!(error instanceof InferenceError)) throw error;
    return fromDataVolumeSpec(dataVolume.spec, namespace, labels, source);
  }
}

async function fromDataVolumeSpec(
  spec: DataVolumeSpec | undefined,
  namespace: string,
  labels: LabelNames,
  source: InferenceSource,
) {
  const clone = spec?.source?.pvc;
  // CDI requires the clone's namespace; an empty one can only mean the VM's own.
  if (clone !== undefined) return fromClaim(clone.namespace || namespace, clone.name, labels, source);
  // KubeVirt would read the VolumeSnapshot or DataSource: neither is served here, and a read that
  // fails refuses the VM (no policy ignores it).
  if (spec?.source?.snapshot !== undefined) {
    throw new InferenceError(
      `unable to infer defaults from VolumeSnapshot ${spec.source.snapshot.name}: VolumeSnapshot sources are not supported yet`,
      false,
    );
  }
  const sourceRef = spec?.sourceRef;
  if (sourceRef !== undefined) {
    if (sourceRef.kind !== "DataSource") {
      throw new InferenceError(
        `unable to infer defaults from DataVolumeSourceRef as Kind ${sourceRef.kind} is not supported`,
        true,
      );
    }
    throw new InferenceError(
      `unable to infer defaults from DataSource ${sourceRef.name}: DataSources are not supported yet`,
      false,
    );
  }
  throw new InferenceError(
    "unable to infer defaults from DataVolumeSpec as DataVolumeSource is not supported",
    true,
  );
}
