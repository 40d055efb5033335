import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import { Quantity } from "../../../runtime/quantity/quantity.js";
import type { StatusCause } from "../api-error.js";
import type { JsonObject, JsonValue } from "../json.js";
import {
  forbiddenField,
  immutableField,
  indexPath,
  invalidField,
  notSupportedField,
  requiredField,
} from "./field-errors.js";
import { arrayAt, objectAt, stringAt, valueAt } from "./json-read.js";
import { dnsSubdomainProblems } from "./name-validation.js";

/**
 * The parts of kube's ValidatePersistentVolume(Claim) and ValidateStorageClass (and their
 * update checks) that a client meets in practice: required fields, enums, exactly one volume
 * source, and what may change after create. Types and quantity syntax are the schema's job.
 */

const accessModes = ["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"];
const volumeModes = ["Block", "Filesystem"];
const reclaimPolicies = ["Delete", "Recycle", "Retain"];

/** The PersistentVolumeSource members: a PV names exactly one. */
const volumeSources = [
  "gcePersistentDisk",
  "awsElasticBlockStore",
  "hostPath",
  "glusterfs",
  "nfs",
  "rbd",
  "quobyte",
  "iscsi",
  "cinder",
  "cephfs",
  "fc",
  "flocker",
  "flexVolume",
  "azureFile",
  "vsphereVolume",
  "azureDisk",
  "photonPersistentDisk",
  "portworxVolume",
  "scaleIO",
  "local",
  "storageos",
  "csi",
];

function accessModeCauses(
  spec: JsonObject | undefined,
  path: string,
  required: string | undefined,
): StatusCause[] {
  const modes = arrayAt(spec, "accessModes");
  if (modes.length === 0) return [requiredField(`${path}.accessModes`, required)];
  const causes: StatusCause[] = modes
    .filter((mode) => typeof mode !== "string" || !accessModes.includes(mode))
    .map((mode) => notSupportedField(`${path}.accessModes`, mode, accessModes));
  if (modes.includes("ReadWriteOncePod") && modes.some((mode) => mode !== "ReadWriteOncePod")) {
    causes.push(
      forbiddenField(`${path}.accessModes`, "may not use ReadWriteOncePod with other access modes"),
    );
  }
  return causes;
}

function enumCause(
  object: JsonObject | undefined,
  field: string,
  path: string,
  supported: string[],
): StatusCause[] {
  const value = valueAt(object, field);
  if (value === undefined || (typeof value === "string" && supported.includes(value))) return [];
  return [notSupportedField(path, value, supported)];
}

function storageClassNameCauses(spec: JsonObject | undefined, path: string): StatusCause[] {
  const name = stringAt(spec, "storageClassName");
  if (name === undefined || name === "") return [];
  return dnsSubdomainProblems(name).map((problem) => invalidField(`${path}.storageClassName`, name, problem));
}

/** ValidatePositiveQuantityValue; a quantity that does not parse is left to the schema. */
function positiveQuantityCauses(value: JsonValue | undefined, path: string): StatusCause[] {
  const quantity = Quantity.tryParse(value);
  if (quantity === undefined || quantity.sign() > 0) return [];
  return [invalidField(path, quantity.toString(), "must be greater than zero")];
}

function claimSpecCauses(spec: JsonObject | undefined): StatusCause[] {
  const causes = [
    ...accessModeCauses(spec, "spec", "at least 1 access mode is required"),
    ...enumCause(spec, "volumeMode", "spec.volumeMode", volumeModes),
    ...storageClassNameCauses(spec, "spec"),
  ];
  const storage = valueAt(spec, "resources", "requests", "storage");
  // kube reports a missing request under this odd path, and a bad one under the full path.
  if (storage === undefined) causes.push(requiredField("spec.resources[storage]"));
  else causes.push(...positiveQuantityCauses(storage, indexPath("spec.resources.requests", "storage")));
  return causes;
}

/** A short diff of the top-level spec fields that differ, standing in for kube's cmp.Diff. */
function specDiff(old: JsonObject | undefined, current: JsonObject | undefined): string {
  const keys = new Set([...Object.keys(old ?? {}), ...Object.keys(current ?? {})]);
  const lines: string[] = [];
  for (const key of [...keys].sort()) {
    const before = valueAt(old, key);
    const after = valueAt(current, key);
    if (jsonEqual(before, after)) continue;
    if (before !== undefined) lines.push(`-  ${key}: ${JSON.stringify(before)}`);
    if (after !== undefined) lines.push(`+  ${key}: ${JSON.stringify(after)}`);
  }
  return lines.join("\n");
}

function withoutKeys(object: JsonObject | undefined, ...keys: string[]): JsonObject {
  const copy: JsonObject = { ...(object ?? {}) };
  for (const key of keys) delete copy[key];
  return copy;
}

/**
 * ValidatePersistentVolumeClaimUpdate: the spec is fixed at create, except that volumeName may
 * be set once, volumeAttributesClassName may change, a bound claim's storage request may grow,
 * and an unbound claim without a class may get one.
 */
function claimUpdateCauses(claim: JsonObject, old: JsonObject): StatusCause[] {
  const spec = objectAt(claim, "spec");
  const oldSpec = objectAt(old, "spec");
  const mutable = ["volumeAttributesClassName", "resources"];
  const unbound = (stringAt(oldSpec, "volumeName") ?? "") === "";
  if (unbound) mutable.push("volumeName");
  // An unbound claim created without a class may be given one later (retroactive default class).
  const classless =
    valueAt(oldSpec, "storageClassName") === undefined || valueAt(oldSpec, "storageClassName") === null;
  if (unbound && classless) mutable.push("storageClassName");
  const resources = withoutKeys(objectAt(spec, "resources"), "requests");
  const oldResources = withoutKeys(objectAt(oldSpec, "resources"), "requests");
  const requests = withoutKeys(objectAt(spec, "resources", "requests"), "storage");
  const oldRequests = withoutKeys(objectAt(oldSpec, "resources", "requests"), "storage");
  const bound = stringAt(claim, "status", "phase") === "Bound";
  const causes: StatusCause[] = [];
  const storage = Quantity.tryParse(valueAt(spec, "resources", "requests", "storage"));
  const oldStorage = Quantity.tryParse(valueAt(oldSpec, "resources", "requests", "storage"));
  const storageChanged = storage !== undefined && oldStorage !== undefined && !storage.equals(oldStorage);
  const fixedPartsChanged =
    !jsonEqual(withoutKeys(spec, ...mutable), withoutKeys(oldSpec, ...mutable)) ||
    !jsonEqual(resources, oldResources) ||
    !jsonEqual(requests, oldRequests) ||
    (storageChanged && !bound);
  if (fixedPartsChanged) {
    causes.push(
      forbiddenField(
        "spec",
        `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${specDiff(oldSpec, spec)}`,
      ),
    );
  }
  if (storage && oldStorage && storage.compare(oldStorage) < 0) {
    causes.push(
      forbiddenField("spec.resources.requests.storage", "field can not be less than previous value"),
    );
  }
  const annotation = "volume.beta.kubernetes.io/storage-class";
  const classAnnotation = stringAt(claim, "metadata", "annotations", annotation);
  const oldClassAnnotation = stringAt(old, "metadata", "annotations", annotation);
  if (classAnnotation !== oldClassAnnotation) {
    causes.push(immutableField(`metadata.annotations[${annotation}]`, classAnnotation ?? ""));
  }
  return causes;
}

export function validatePersistentVolumeClaim(claim: JsonObject, old: JsonObject | undefined): StatusCause[] {
  const causes = claimSpecCauses(objectAt(claim, "spec"));
  if (old) causes.push(...claimUpdateCauses(claim, old));
  return causes;
}

function sourceCauses(spec: JsonObject | undefined): StatusCause[] {
  const named = volumeSources.filter(
    (source) => valueAt(spec, source) !== undefined && valueAt(spec, source) !== null,
  );
  if (named.length === 0) return [requiredField("spec", "must specify a volume type")];
  const causes = named
    .slice(1)
    .map((source) => forbiddenField(`spec.${source}`, "may not specify more than 1 volume type"));
  if (named.includes("hostPath") && (stringAt(spec, "hostPath", "path") ?? "") === "") {
    causes.push(requiredField("spec.hostPath.path"));
  }
  if (named.includes("local")) {
    if ((stringAt(spec, "local", "path") ?? "") === "") causes.push(requiredField("spec.local.path"));
    if (valueAt(spec, "nodeAffinity") === undefined) {
      causes.push(requiredField("spec.nodeAffinity", "Local volume requires node affinity"));
    }
  }
  return causes;
}

function capacityCauses(spec: JsonObject | undefined): StatusCause[] {
  const capacity = objectAt(spec, "capacity") ?? {};
  const names = Object.keys(capacity);
  if (names.length === 0) return [requiredField("spec.capacity")];
  const causes: StatusCause[] = [];
  if (!names.includes("storage") || names.length > 1) {
    causes.push(notSupportedField("spec.capacity", capacity, ["storage"]));
  }
  for (const name of names)
    causes.push(...positiveQuantityCauses(capacity[name], indexPath("spec.capacity", name)));
  return causes;
}

/** ValidatePersistentVolumeUpdate: the source, volumeMode and a set node affinity stay. */
function volumeUpdateCauses(volume: JsonObject, old: JsonObject): StatusCause[] {
  const spec = objectAt(volume, "spec");
  const oldSpec = objectAt(old, "spec");
  const causes: StatusCause[] = [];
  const source = (s: JsonObject | undefined) =>
    Object.fromEntries(
      volumeSources.flatMap((name) =>
        valueAt(s, name) === undefined ? [] : [[name, valueAt(s, name) ?? null]],
      ),
    );
  if (!jsonEqual(source(spec), source(oldSpec))) {
    causes.push(
      forbiddenField(
        "spec.persistentvolumesource",
        `spec.persistentvolumesource is immutable after creation\n${specDiff(source(oldSpec), source(spec))}`,
      ),
    );
  }
  if (!jsonEqual(valueAt(spec, "volumeMode"), valueAt(oldSpec, "volumeMode"))) {
    causes.push(immutableField("volumeMode", valueAt(spec, "volumeMode")));
  }
  const oldAffinity = valueAt(oldSpec, "nodeAffinity");
  if (oldAffinity !== undefined && !jsonEqual(valueAt(spec, "nodeAffinity"), oldAffinity)) {
    causes.push(immutableField("nodeAffinity", valueAt(spec, "nodeAffinity")));
  }
  return causes;
}

export function validatePersistentVolume(volume: JsonObject, old: JsonObject | undefined): StatusCause[] {
  const spec = objectAt(volume, "spec");
  const causes = [
    ...accessModeCauses(spec, "spec", undefined),
    ...capacityCauses(spec),
    ...sourceCauses(spec),
    ...enumCause(
      spec,
      "persistentVolumeReclaimPolicy",
      "spec.persistentVolumeReclaimPolicy",
      reclaimPolicies,
    ),
    ...enumCause(spec, "volumeMode", "spec.volumeMode", volumeModes),
    ...storageClassNameCauses(spec, "spec"),
  ];
  if (old) causes.push(...volumeUpdateCauses(volume, old));
  return causes;
}

function storageClassUpdateCauses(storageClass: JsonObject, old: JsonObject): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!jsonEqual(valueAt(storageClass, "parameters") ?? {}, valueAt(old, "parameters") ?? {})) {
    causes.push(forbiddenField("parameters", "updates to parameters are forbidden."));
  }
  if (stringAt(storageClass, "provisioner") !== stringAt(old, "provisioner")) {
    causes.push(forbiddenField("provisioner", "updates to provisioner are forbidden."));
  }
  if (stringAt(storageClass, "reclaimPolicy") !== stringAt(old, "reclaimPolicy")) {
    causes.push(forbiddenField("reclaimPolicy", "updates to reclaimPolicy are forbidden."));
  }
  if (stringAt(storageClass, "volumeBindingMode") !== stringAt(old, "volumeBindingMode")) {
    causes.push(immutableField("volumeBindingMode", valueAt(storageClass, "volumeBindingMode")));
  }
  return causes;
}

export function validateStorageClass(storageClass: JsonObject, old: JsonObject | undefined): StatusCause[] {
  const causes: StatusCause[] = [];
  if ((stringAt(storageClass, "provisioner") ?? "") === "") causes.push(requiredField("provisioner"));
  causes.push(
    ...enumCause(storageClass, "reclaimPolicy", "reclaimPolicy", ["Delete", "Retain"]),
    ...enumCause(storageClass, "volumeBindingMode", "volumeBindingMode", [
      "Immediate",
      "WaitForFirstConsumer",
    ]),
  );
  if (old) causes.push(...storageClassUpdateCauses(storageClass, old));
  return causes;
}
