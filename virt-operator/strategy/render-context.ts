import type { KubeVirt, KubeVirtSpec } from "../../api/index.js";
import type { IssuedTrust, OperatorIdentity } from "./install-strategy.js";

/** `spec.infra` / `spec.workloads` of the KubeVirt CR: where components (or VMs) may run. */
export type NodePlacement = NonNullable<NonNullable<KubeVirtSpec["infra"]>["nodePlacement"]>;

/**
 * Everything one rendering of the strategy depends on, read once from the operator's identity
 * and the KubeVirt CR. The renderers of the single objects see only this, never the CR, so what
 * can change an object is listed here.
 */
export interface RenderContext {
  /** Namespace of the operator, the KubeVirt CR and every namespaced component. */
  readonly namespace: string;
  /** Registry the component images come from: the CR's `imageRegistry`, else the operator's. */
  readonly registry: string;
  /** Tag of the component images: the CR's `imageTag`, else the operator's version. */
  readonly version: string;
  /** The CR's `imagePullPolicy`; undefined leaves the API server's default (IfNotPresent for a tag). */
  readonly imagePullPolicy: KubeVirtSpec["imagePullPolicy"];
  /** The CR's `imagePullSecrets`, given to every component pod. */
  readonly imagePullSecrets: NonNullable<KubeVirtSpec["imagePullSecrets"]>;
  /** Placement of virt-api and virt-controller (KubeVirt's `infra`). */
  readonly infraPlacement: NodePlacement;
  /** virt-api and virt-controller replicas (KubeVirt's `infra.replicas`); default 2. */
  readonly infraReplicas: number;
  /** Placement of virt-handler, hence of the VMs (KubeVirt's `workloads`). */
  readonly workloadsPlacement: NodePlacement;
  /** The CA bundle virt-api's certificate chains to, base64 (as `caBundle` fields take it). */
  readonly caBundle: string;
  /** `configuration.commonInstancetypesDeployment.enabled`: install the common set (default true). */
  readonly commonInstancetypesEnabled: boolean;
}

const DEFAULT_INFRA_REPLICAS = 2;

export function renderContextOf(
  operator: OperatorIdentity,
  kubevirt: KubeVirt,
  trust: IssuedTrust,
): RenderContext {
  const spec = kubevirt.spec;
  return {
    namespace: operator.namespace,
    // An empty string in the CR means "not set", as in KubeVirt (its Go fields have no nil).
    registry: spec.imageRegistry || operator.registry,
    version: spec.imageTag || operator.version,
    imagePullPolicy: spec.imagePullPolicy,
    imagePullSecrets: spec.imagePullSecrets ?? [],
    infraPlacement: spec.infra?.nodePlacement ?? {},
    infraReplicas: spec.infra?.replicas ?? DEFAULT_INFRA_REPLICAS,
    workloadsPlacement: spec.workloads?.nodePlacement ?? {},
    caBundle: Buffer.from(trust.caBundlePem, "utf8").toString("base64"),
    commonInstancetypesEnabled: spec.configuration?.commonInstancetypesDeployment?.enabled ?? true,
  };
}

/** A component's image, `REGISTRY/NAME:TAG` (KubeVirt's layout: one repository per component). */
export function componentImage(context: Pick<RenderContext, "registry" | "version">, name: string): string {
  return `${context.registry}/${name}:${context.version}`;
}
