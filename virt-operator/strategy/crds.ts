import { buildCrd, crdName, KUBEVIRT_KINDS, KubeVirtKind } from "../../api/index.js";
import type { ManagedObject } from "./install-strategy.js";
import { managedMetadata } from "./object-metadata.js";
import type { RenderContext } from "./render-context.js";

/**
 * The kubevirt.io CRDs the strategy installs: every kind of api/ except KubeVirt itself, whose
 * CRD ships in the operator bundle (the operator must read its CR before it can install
 * anything, and uninstalling must not delete the CR it is uninstalling).
 */
export function renderCrds(context: RenderContext): ManagedObject[] {
  return KUBEVIRT_KINDS.filter((definition) => definition.kind !== KubeVirtKind.kind).map((definition) => {
    const { metadata, spec } = buildCrd(definition);
    // api/ labels its CRDs as KubeVirt does (`kubevirt.io: ""`); the managed labels come on top.
    const crdLabels = (metadata as { labels?: Record<string, string> } | undefined)?.labels ?? {};
    return {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: managedMetadata(context, crdName(definition), { extraLabels: crdLabels }),
      spec,
    };
  });
}
