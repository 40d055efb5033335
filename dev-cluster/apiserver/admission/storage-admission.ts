import { Quantity } from "../../../runtime/quantity/quantity.js";
import { ApiError } from "../api-error.js";
import { betaStorageClassAnnotation, isDefaultStorageClass } from "../builtin/storage-classes.js";
import { isJsonObject, type JsonObject } from "../json.js";
import { storageResource } from "../registry/resource-registry.js";
import type { ResourceType } from "../resource-type.js";
import type { ObjectStore } from "../storage/object-store.js";

/**
 * kube-apiserver's built-in storage admission plugins, for creates only:
 * - DefaultStorageClass: a claim created without a class (no `storageClassName`, no beta
 *   annotation) gets the default StorageClass's name; with several defaults, the newest (then
 *   the first by name), as storageutil.GetDefaultClass picks.
 * - StorageObjectInUseProtection: claims get `kubernetes.io/pvc-protection`, volumes
 *   `kubernetes.io/pv-protection`; the PV controller removes them when nothing needs the object.
 *
 * - PersistentVolumeClaimResize, on updates: a claim's storage request may grow only while it is
 *   Bound and its StorageClass has `allowVolumeExpansion: true` (403 otherwise, with the plugin's
 *   messages). It runs after the object's own validation, as a validating plugin does.
 *
 * The create plugins ride on the type's `applyDefaults`, which ObjectService calls right before
 * validating and committing a create or an update (so webhooks see the result in their dry run).
 * A write is a create exactly when nothing is stored under the object's key yet.
 */

export const PVC_PROTECTION_FINALIZER = "kubernetes.io/pvc-protection";
export const PV_PROTECTION_FINALIZER = "kubernetes.io/pv-protection";

const STORAGE_CLASSES = storageResource({ group: "storage.k8s.io", plural: "storageclasses" });

function metadataOf(object: JsonObject): JsonObject {
  if (!isJsonObject(object.metadata)) object.metadata = {};
  return object.metadata as JsonObject;
}

const text = (value: unknown): string => (typeof value === "string" ? value : "");

function addFinalizer(object: JsonObject, finalizer: string): void {
  const metadata = metadataOf(object);
  const finalizers = Array.isArray(metadata.finalizers) ? metadata.finalizers : [];
  if (!finalizers.includes(finalizer)) metadata.finalizers = [...finalizers, finalizer];
}

/** The default class a new claim gets, or undefined when there is none. */
export function defaultStorageClassName(classes: JsonObject[]): string | undefined {
  const created = (c: JsonObject) => Date.parse(text(metadataOf(c).creationTimestamp)) || 0;
  const name = (c: JsonObject) => text(metadataOf(c).name);
  const [newest] = classes
    .filter(isDefaultStorageClass)
    .sort((a, b) => created(b) - created(a) || name(a).localeCompare(name(b)));
  return newest ? name(newest) : undefined;
}

function claimHasClass(claim: JsonObject): boolean {
  const spec = isJsonObject(claim.spec) ? claim.spec : undefined;
  const annotations = metadataOf(claim).annotations;
  const annotated = isJsonObject(annotations) && typeof annotations[betaStorageClassAnnotation] === "string";
  // An explicit "" asks for no class: only an unset field is defaulted.
  return annotated || (spec?.storageClassName !== undefined && spec.storageClassName !== null);
}

function admitNewClaim(claim: JsonObject, store: ObjectStore): void {
  addFinalizer(claim, PVC_PROTECTION_FINALIZER);
  if (claimHasClass(claim)) return;
  const className = defaultStorageClassName(store.list(STORAGE_CLASSES));
  if (className === undefined) return;
  if (!isJsonObject(claim.spec)) claim.spec = {};
  (claim.spec as JsonObject).storageClassName = className;
}

function isStored(type: ResourceType, object: JsonObject, store: ObjectStore): boolean {
  const metadata = metadataOf(object);
  const namespace = type.namespaced ? text(metadata.namespace) : "";
  return store.get({ resource: storageResource(type), namespace, name: text(metadata.name) }) !== undefined;
}

function storageRequestOf(claim: JsonObject): Quantity | undefined {
  const spec = isJsonObject(claim.spec) ? claim.spec : {};
  const resources = isJsonObject(spec.resources) ? spec.resources : {};
  const requests = isJsonObject(resources.requests) ? resources.requests : {};
  const storage = requests.storage;
  return typeof storage === "string" || typeof storage === "number" ? Quantity.tryParse(storage) : undefined;
}

function classOf(claim: JsonObject): string {
  const spec = isJsonObject(claim.spec) ? claim.spec : {};
  const annotated = metadataOf(claim).annotations;
  const beta = isJsonObject(annotated) ? annotated[betaStorageClassAnnotation] : undefined;
  return typeof beta === "string" ? beta : text(spec.storageClassName);
}

/** PersistentVolumeClaimResize's Validate. */
function admitClaimResize(claim: JsonObject, old: JsonObject, store: ObjectStore): void {
  const oldSize = storageRequestOf(old);
  const newSize = storageRequestOf(claim);
  if (oldSize === undefined || newSize === undefined || newSize.compare(oldSize) <= 0) return;
  const forbidden = (why: string) =>
    new ApiError(
      403,
      "Forbidden",
      `persistentvolumeclaims "${text(metadataOf(claim).name)}" is forbidden: ${why}`,
    );
  const oldStatus = isJsonObject(old.status) ? old.status : {};
  if (oldStatus.phase !== "Bound") throw forbidden("Only bound persistent volume claims can be expanded");
  const className = classOf(claim);
  const storageClass =
    className !== "" && className === classOf(old)
      ? store.get({ resource: STORAGE_CLASSES, namespace: "", name: className })
      : undefined;
  if (storageClass?.allowVolumeExpansion !== true)
    throw forbidden(
      "only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize",
    );
}

/** The resource type with the storage admission plugins added, for PVCs and PVs; others unchanged. */
export function withStorageAdmission(type: ResourceType, store: ObjectStore): ResourceType {
  if (type.group !== "") return type;
  const admitNew =
    type.plural === "persistentvolumeclaims"
      ? (object: JsonObject) => admitNewClaim(object, store)
      : type.plural === "persistentvolumes"
        ? (object: JsonObject) => addFinalizer(object, PV_PROTECTION_FINALIZER)
        : undefined;
  if (!admitNew) return type;
  const wrapped = Object.create(type) as ResourceType;
  wrapped.applyDefaults = (object) => {
    type.applyDefaults(object);
    if (!isStored(type, object, store)) admitNew(object);
  };
  if (type.plural === "persistentvolumeclaims") {
    wrapped.validate = (object, old) => {
      const causes = type.validate(object, old);
      if (causes.length === 0 && old !== undefined) admitClaimResize(object, old, store);
      return causes;
    };
  }
  return wrapped;
}
