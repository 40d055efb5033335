import {
  type EventRecorder,
  type Frozen,
  isConflict,
  mutableCopy,
  type ResourceClient,
  type SharedInformer,
} from "../../../runtime/index.js";
import type { PersistentVolumeClaim, Pod, StorageClass } from "../kinds.js";
import {
  annotationOf,
  BETA_STORAGE_PROVISIONER,
  SELECTED_NODE,
  STORAGE_PROVISIONER,
} from "./storage-annotations.js";
import { classOf } from "./volume-matching.js";

/**
 * What the PV controller does for a claim no volume fits: hand it to the external provisioner
 * its class names (the provisioner annotations, event ExternalProvisioning), wait for the first
 * consumer of a WaitForFirstConsumer class, or give its default class to a claim created before
 * there was one (kube's retroactive default StorageClass assignment).
 */

type Claim = Frozen<PersistentVolumeClaim>;

export interface ProvisioningDeps {
  classes: SharedInformer<StorageClass>;
  pods: SharedInformer<Pod>;
  claimsClient: ResourceClient<PersistentVolumeClaim>;
  events: EventRecorder;
}

const DEFAULT_CLASS_ANNOTATIONS = [
  "storageclass.kubernetes.io/is-default-class",
  "storageclass.beta.kubernetes.io/is-default-class",
];

/** IsDelayBindingMode: the claim's class exists and binds at the first consumer. */
export function isDelayBinding(claim: Claim, classes: SharedInformer<StorageClass>): boolean {
  const className = classOf(claim);
  if (className === "") return false;
  return classes.get(className)?.volumeBindingMode === "WaitForFirstConsumer";
}

/** The default class, as the DefaultStorageClass admission picks it (newest, then by name). */
function defaultClassName(classes: SharedInformer<StorageClass>): string | undefined {
  const created = (c: Frozen<StorageClass>) => Date.parse(c.metadata?.creationTimestamp ?? "") || 0;
  const [newest] = classes
    .list()
    .filter((c) => DEFAULT_CLASS_ANNOTATIONS.some((key) => c.metadata?.annotations?.[key] === "true"))
    .sort(
      (a, b) => created(b) - created(a) || (a.metadata?.name ?? "").localeCompare(b.metadata?.name ?? ""),
    );
  return newest?.metadata?.name;
}

/**
 * Gives an unbound claim that has no class at all (not even "") the default class; true when it
 * wrote, and the claim's next sync goes on from there.
 */
export async function assignDefaultClass(deps: ProvisioningDeps, claim: Claim): Promise<boolean> {
  if (claim.spec?.storageClassName !== undefined && claim.spec.storageClassName !== null) return false;
  if (annotationOf(claim, "volume.beta.kubernetes.io/storage-class") !== undefined) return false;
  const className = defaultClassName(deps.classes);
  if (className === undefined) return false;
  const updated = mutableCopy<PersistentVolumeClaim>(claim);
  updated.spec = { ...updated.spec, storageClassName: className };
  await deps.claimsClient.update(updated);
  return true;
}

/** Names of the pods of the claim's namespace that use it and wait for a node. */
function unscheduledConsumers(deps: ProvisioningDeps, claim: Claim): string[] {
  return deps.pods
    .list({ namespace: claim.metadata?.namespace ?? "" })
    .filter(
      (pod) =>
        !pod.spec?.nodeName &&
        (pod.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName === claim.metadata?.name),
    )
    .map((pod) => pod.metadata?.name ?? "")
    .sort();
}

/** emitEventForUnboundDelayBindingClaim. */
export function reportWaitingForConsumer(deps: ProvisioningDeps, claim: Claim): void {
  const pods = unscheduledConsumers(deps, claim);
  if (pods.length === 0) {
    deps.events.normal(
      claim,
      "WaitForFirstConsumer",
      "waiting for first consumer to be created before binding",
    );
    return;
  }
  const message =
    pods.length === 1
      ? `waiting for pod ${pods[0]} to be scheduled`
      : `waiting for pods ${pods.join(",")} to be scheduled`;
  deps.events.normal(claim, "WaitForPodScheduled", message);
}

export const hasSelectedNode = (claim: Claim): boolean => (annotationOf(claim, SELECTED_NODE) ?? "") !== "";

/**
 * provisionClaim for an external provisioner: the claim is annotated with the class's
 * provisioner, which then creates a volume pre-bound to it. In-tree provisioners
 * (`kubernetes.io/…`, `kubernetes.io/no-provisioner` among them) do not exist here.
 */
export async function provisionClaim(deps: ProvisioningDeps, claim: Claim): Promise<void> {
  const className = classOf(claim);
  const storageClass = deps.classes.get(className);
  if (!storageClass) {
    deps.events.warning(claim, "ProvisioningFailed", `storageclass.storage.k8s.io "${className}" not found`);
    return;
  }
  const provisioner = storageClass.provisioner;
  if (provisioner.startsWith("kubernetes.io/")) {
    deps.events.warning(claim, "ProvisioningFailed", `no volume plugin matched name: ${provisioner}`);
    return;
  }
  if (
    annotationOf(claim, STORAGE_PROVISIONER) !== provisioner ||
    annotationOf(claim, BETA_STORAGE_PROVISIONER) !== provisioner
  ) {
    const updated = mutableCopy<PersistentVolumeClaim>(claim);
    updated.metadata = {
      ...updated.metadata,
      annotations: {
        ...(updated.metadata?.annotations ?? {}),
        [STORAGE_PROVISIONER]: provisioner,
        [BETA_STORAGE_PROVISIONER]: provisioner,
      },
    };
    try {
      await deps.claimsClient.update(updated);
    } catch (error) {
      // A Conflict only means the cache is behind; the newer claim brings the key back.
      if (isConflict(error)) throw error;
      deps.events.warning(claim, "ProvisioningFailed", `Error saving claim: ${(error as Error).message}`);
      throw error;
    }
  }
  deps.events.normal(
    claim,
    "ExternalProvisioning",
    `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
  );
}
