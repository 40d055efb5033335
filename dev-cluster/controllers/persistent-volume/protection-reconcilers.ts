import {
  type Frozen,
  type KubeObject,
  mutableCopy,
  type ReconcileRequest,
  type ReconcileResult,
  type ResourceClient,
  type SharedInformer,
  unlessStale,
} from "../../../runtime/index.js";
import type { PersistentVolume, PersistentVolumeClaim, Pod } from "../kinds.js";
import { PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER } from "./storage-annotations.js";

/**
 * kube's pvc-protection and pv-protection controllers: a claim being deleted keeps
 * `kubernetes.io/pvc-protection` while a pod uses it, a volume being deleted keeps
 * `kubernetes.io/pv-protection` while it is Bound. Objects that lack the finalizer (created
 * before admission added it) get it, as in kube.
 */

type Finalized = KubeObject & { metadata?: { finalizers?: string[]; deletionTimestamp?: string } };

function withFinalizers<T extends Finalized>(object: Frozen<T>, finalizers: string[]): T {
  const updated = mutableCopy<T>(object);
  updated.metadata = { ...updated.metadata, finalizers };
  return updated;
}

/** Adds or removes `finalizer` as `keep` says, with the cached resourceVersion as precondition. */
async function settleFinalizer<T extends Finalized>(
  object: Frozen<T>,
  finalizer: string,
  keep: () => Promise<boolean>,
  client: ResourceClient<T>,
  request: ReconcileRequest,
): Promise<void> {
  const finalizers = [...(object.metadata?.finalizers ?? [])];
  const has = finalizers.includes(finalizer);
  const deleting = Boolean(object.metadata?.deletionTimestamp);
  if (deleting && has && !(await keep())) {
    const rest = finalizers.filter((f) => f !== finalizer);
    await unlessStale(
      () => client.update(withFinalizers(object, rest)),
      request.log,
      `removing ${finalizer}`,
    );
  } else if (!deleting && !has) {
    await unlessStale(
      () => client.update(withFinalizers(object, [...finalizers, finalizer])),
      request.log,
      `adding ${finalizer}`,
    );
  }
}

/** podIsShutDown's terminal phases: such a pod holds no volume any more. */
const isTerminated = (pod: Frozen<Pod> | Pod) =>
  pod.status?.phase === "Succeeded" || pod.status?.phase === "Failed";

/** podUsesPVC: only a scheduled pod can hold a claim (the kubelet refuses claims being deleted). */
export function podUsesClaim(pod: Frozen<Pod> | Pod, claimName: string): boolean {
  if (!pod.spec?.nodeName || isTerminated(pod)) return false;
  return (pod.spec.volumes ?? []).some((volume) => volume.persistentVolumeClaim?.claimName === claimName);
}

export interface ClaimProtectionDeps {
  claims: SharedInformer<PersistentVolumeClaim>;
  pods: SharedInformer<Pod>;
  claimsClient: ResourceClient<PersistentVolumeClaim>;
  podsClient: ResourceClient<Pod>;
}

export class ClaimProtectionReconciler {
  readonly #deps: ClaimProtectionDeps;

  constructor(deps: ClaimProtectionDeps) {
    this.#deps = deps;
  }

  async reconcile(request: ReconcileRequest): Promise<ReconcileResult> {
    const claim = this.#deps.claims.get(request.key);
    if (!claim) return {};
    await settleFinalizer(
      claim,
      PVC_PROTECTION_FINALIZER,
      () => this.#inUse(claim),
      this.#deps.claimsClient,
      request,
    );
    return {};
  }

  /**
   * The cache may not show a pod created a moment ago: a claim the cache finds unused is checked
   * against a fresh list before its finalizer goes (kube's askAPIServer).
   */
  async #inUse(claim: Frozen<PersistentVolumeClaim>): Promise<boolean> {
    const namespace = claim.metadata?.namespace ?? "";
    const name = claim.metadata?.name ?? "";
    if (this.#deps.pods.list({ namespace }).some((pod) => podUsesClaim(pod, name))) return true;
    const live = await this.#deps.podsClient.list({ namespace });
    return live.items.some((pod) => podUsesClaim(pod, name));
  }
}

export interface VolumeProtectionDeps {
  volumes: SharedInformer<PersistentVolume>;
  volumesClient: ResourceClient<PersistentVolume>;
}

export class VolumeProtectionReconciler {
  readonly #deps: VolumeProtectionDeps;

  constructor(deps: VolumeProtectionDeps) {
    this.#deps = deps;
  }

  async reconcile(request: ReconcileRequest): Promise<ReconcileResult> {
    const volume = this.#deps.volumes.get(request.key);
    if (!volume) return {};
    const bound = async () => volume.status?.phase === "Bound";
    await settleFinalizer(volume, PV_PROTECTION_FINALIZER, bound, this.#deps.volumesClient, request);
    return {};
  }
}
