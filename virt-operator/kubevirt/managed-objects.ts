import { crdName, KubeVirtKind } from "../../api/index.js";
import {
  type Frozen,
  isConflict,
  isNotFound,
  type Manager,
  type SharedInformer,
} from "../../runtime/index.js";
import { isIssuedCertificateSecret } from "../certificates/certificate-secret.js";
import { MANAGED_BY_LABEL, MANAGED_BY_VALUE } from "../strategy/install-strategy.js";
import { type InstalledObject, type ManagedKind, ManagedKindTable } from "./managed-kinds.js";
import { isInstalledByOperator } from "./object-drift.js";

/** One live object the operator installed, with its kind (list answers leave `kind` out of items). */
export interface LiveObject {
  kind: ManagedKind;
  object: Frozen<InstalledObject>;
}

const MANAGED_SELECTOR = `${MANAGED_BY_LABEL}=${MANAGED_BY_VALUE}`;
/**
 * The KubeVirt CRD comes with the operator's bundle: removing it would take the KubeVirt CR (and
 * the operator's own finalizer on it) with it. Never deleted, even if a strategy renders it.
 */
const KUBEVIRT_CRD = crdName(KubeVirtKind);

/**
 * The caches of everything the operator may have installed: one informer per managed kind,
 * selecting the managed-by label, so the cache is the installed set and nothing else.
 */
export class ManagedObjects {
  readonly kinds: ManagedKindTable;
  readonly #manager: Manager;
  readonly #informers = new Map<ManagedKind, SharedInformer<InstalledObject>>();

  constructor(manager: Manager, kinds: ManagedKindTable = new ManagedKindTable()) {
    this.kinds = kinds;
    this.#manager = manager;
    for (const kind of kinds.kinds)
      this.#informers.set(kind, manager.informer(kind.resource, { labelSelector: MANAGED_SELECTOR }));
  }

  informers(): SharedInformer<InstalledObject>[] {
    return [...this.#informers.values()];
  }

  /** The cached object of `kind` with the name (and namespace) of `object`. */
  get(
    kind: ManagedKind,
    object: { readonly metadata: { readonly name: string; readonly namespace?: string } },
  ): Frozen<InstalledObject> | undefined {
    const { name, namespace } = object.metadata;
    return this.informerOf(kind).get({
      name,
      ...(kind.resource.namespaced && namespace ? { namespace } : {}),
    });
  }

  /**
   * Every cached object the operator installed, from a strategy or as an issued certificate
   * Secret, except the bundle's KubeVirt CRD: what an uninstall removes.
   */
  installed(): LiveObject[] {
    const found: LiveObject[] = [];
    for (const [kind, informer] of this.#informers) {
      for (const object of informer.list()) {
        const ours = isInstalledByOperator(object) || isIssuedCertificate(kind, object);
        if (ours && !isKubeVirtCrd(kind, object)) found.push({ kind, object });
      }
    }
    return found;
  }

  /**
   * Deletes one installed object (dependents in the background, as kubectl does). Resolves
   * false when it was already gone or replaced (another uid): nothing of ours was deleted.
   */
  async delete(live: LiveObject, signal: AbortSignal): Promise<boolean> {
    const { name, namespace, uid } = live.object.metadata ?? {};
    if (!name) return false;
    try {
      await this.#manager.client
        .resource(live.kind.resource)
        .delete(
          { name, ...(live.kind.resource.namespaced && namespace ? { namespace } : {}) },
          { propagationPolicy: "Background", ...(uid ? { preconditions: { uid } } : {}), signal },
        );
      return true;
    } catch (error) {
      if (isNotFound(error) || isConflict(error)) return false;
      throw new Error(`cannot delete ${describeObject(live)}`, { cause: error });
    }
  }

  /** The cache of one managed kind (e.g. the Secrets, for the certificate step). */
  informerOf(kind: ManagedKind): SharedInformer<InstalledObject> {
    const informer = this.#informers.get(kind);
    if (!informer)
      throw new Error(`no informer for ${kind.resource.kind}: it is not in the managed kind table`);
    return informer;
  }
}

function isIssuedCertificate(kind: ManagedKind, object: Frozen<InstalledObject>): boolean {
  return kind.resource.group === "" && kind.resource.kind === "Secret" && isIssuedCertificateSecret(object);
}

export function isKubeVirtCrd(kind: ManagedKind, object: Frozen<InstalledObject>): boolean {
  return kind.resource.kind === "CustomResourceDefinition" && object.metadata?.name === KUBEVIRT_CRD;
}

/** e.g. `Deployment kubevirt/virt-controller`, `ClusterRole kubevirt.io:admin`. */
export function describeObject(live: {
  kind: ManagedKind;
  object: { readonly metadata?: { readonly name?: string; readonly namespace?: string } };
}): string {
  const { name, namespace } = live.object.metadata ?? {};
  const scoped = live.kind.resource.namespaced && namespace ? `${namespace}/${name ?? ""}` : (name ?? "");
  return `${live.kind.resource.kind} ${scoped}`;
}
