import { type Frozen, type KubeObject, mutableCopy, type ResourceKind } from "../../../runtime/index.js";
import type { Pod, PodTemplate } from "../kinds.js";
import { controllerRefTo } from "../ownership/controller-ref.js";

/**
 * A pod for `owner` from its template (controller.GetPodFromTemplate): the template's labels,
 * annotations, finalizers and spec, a generated name `<owner>-`, the owner's namespace and a
 * controller reference to it.
 */
export function podFromTemplate(
  template: Frozen<PodTemplate> | PodTemplate,
  owner: Frozen<KubeObject>,
  ownerKind: ResourceKind,
): Pod {
  const copy = mutableCopy<PodTemplate>(template);
  const metadata = copy.metadata ?? {};
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      generateName: `${owner.metadata?.name ?? ""}-`,
      namespace: owner.metadata?.namespace ?? "",
      ...(metadata.labels ? { labels: metadata.labels } : {}),
      ...(metadata.annotations ? { annotations: metadata.annotations } : {}),
      ...(metadata.finalizers ? { finalizers: metadata.finalizers } : {}),
      ownerReferences: [controllerRefTo(owner, ownerKind)],
    },
    ...(copy.spec ? { spec: copy.spec } : {}),
  };
}
