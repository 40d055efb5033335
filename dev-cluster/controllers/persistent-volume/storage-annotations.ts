/** The annotations and finalizers of kube's PV controller (pkg/controller/volume/persistentvolume). */

/** On a claim: the controller finished binding it (kube's AnnBindCompleted). */
export const BIND_COMPLETED = "pv.kubernetes.io/bind-completed";
/** On a claim or volume: the controller, not the user, chose the binding (AnnBoundByController). */
export const BOUND_BY_CONTROLLER = "pv.kubernetes.io/bound-by-controller";
/** On a claim: the node the scheduler chose for its first consumer (AnnSelectedNode). */
export const SELECTED_NODE = "volume.kubernetes.io/selected-node";
/** On a claim: which external provisioner is asked to provision it (AnnStorageProvisioner). */
export const STORAGE_PROVISIONER = "volume.kubernetes.io/storage-provisioner";
export const BETA_STORAGE_PROVISIONER = "volume.beta.kubernetes.io/storage-provisioner";
/** On a volume: the provisioner that made it, and that deletes it (AnnDynamicallyProvisioned). */
export const PROVISIONED_BY = "pv.kubernetes.io/provisioned-by";
/** A class whose volumes are only ever created by hand (local volumes). */
export const NO_PROVISIONER = "kubernetes.io/no-provisioner";

export const PVC_PROTECTION_FINALIZER = "kubernetes.io/pvc-protection";
export const PV_PROTECTION_FINALIZER = "kubernetes.io/pv-protection";

/** The value the controller writes into its yes/no annotations. */
export const YES = "yes";

export function annotationOf(
  object: { metadata?: { annotations?: Readonly<Record<string, string>> } },
  key: string,
): string | undefined {
  const annotations = object.metadata?.annotations;
  return annotations && Object.hasOwn(annotations, key) ? annotations[key] : undefined;
}

export function hasAnnotation(
  object: { metadata?: { annotations?: Readonly<Record<string, string>> } },
  key: string,
): boolean {
  return annotationOf(object, key) !== undefined;
}
