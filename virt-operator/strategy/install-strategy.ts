import type { KubeVirt } from "../../api/index.js";

/**
 * The install strategy: everything virt-operator creates for one KubeVirt CR, rendered from the
 * operator's own version and the CR's spec. The reconciler applies it as it is; nothing else in
 * the operator knows what a component needs.
 */

/** A Kubernetes object as the strategy renders it: plain JSON, apiVersion/kind/metadata set. */
export interface ManagedObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels: Record<string, string>;
    annotations: Record<string, string>;
  };
  [field: string]: unknown;
}

/** Where the operator runs and what it is: known from its own Deployment (env), never from the CR. */
export interface OperatorIdentity {
  /** Namespace of the operator, the KubeVirt CR and every namespaced component. */
  namespace: string;
  /** Registry (and repository prefix) the operator's own image came from, e.g. `ghcr.io/kubevirt-ts`. */
  registry: string;
  /** The operator's own tag, e.g. `v0.1.0`: what it installs unless the CR says `imageTag`. */
  version: string;
}

export interface InstallStrategy {
  /** Registry the component images come from (the CR's `imageRegistry`, else the operator's). */
  registry: string;
  /** Tag of the component images (the CR's `imageTag`, else the operator's version). */
  version: string;
  /** A digest of every rendered object: changes whenever anything the operator applies changes. */
  id: string;
  /**
   * The objects in apply order: CRDs first, then ServiceAccounts, RBAC and the PriorityClass,
   * then the Service and the workloads (Deployments, DaemonSets), then the API registrations
   * (APIService, webhook configurations), which send requests to virt-api. Uninstall deletes in
   * reverse order: nothing is sent to a virt-api that is already gone.
   */
  objects: ManagedObject[];
  /**
   * KubeVirt's common instancetypes and preferences (virt-operator/common-instancetypes/), applied
   * once the rest is installed; empty when the CR disables them, undefined when the strategy does
   * not manage them at all (then none are created or deleted). Not in `objects`: they are custom
   * resources of the CRDs above, kept without informers (see common-instancetypes-sync.ts).
   */
  commonInstancetypes?: ManagedObject[];
}

/** Label on every managed object: what the operator lists to find (and repair, and remove) them. */
export const MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";
export const MANAGED_BY_VALUE = "virt-operator";
/** Annotations recording which strategy produced an object (KubeVirt's names). */
export const VERSION_ANNOTATION = "kubevirt.io/install-strategy-version";
export const REGISTRY_ANNOTATION = "kubevirt.io/install-strategy-registry";
export const IDENTIFIER_ANNOTATION = "kubevirt.io/install-strategy-identifier";
/** The field manager of the operator's server-side applies. */
export const OPERATOR_FIELD_MANAGER = "virt-operator";
export const OPERATOR_FINALIZER = "kubevirt.io/virtOperatorFinalizer";

/**
 * What the operator issued at run time that rendered objects refer to (virt-operator/certificates/).
 * Generated, so it cannot be rendered: the reconciler passes it in.
 */
export interface IssuedTrust {
  /** The CA bundle (PEM) virt-api's serving certificate chains to: the caBundle of the APIService and the webhooks. */
  readonly caBundlePem: string;
}

/** Renders the strategy for `kubevirt` (see strategy/render-strategy.ts). */
export type RenderStrategy = (
  operator: OperatorIdentity,
  kubevirt: KubeVirt,
  trust: IssuedTrust,
) => InstallStrategy;
