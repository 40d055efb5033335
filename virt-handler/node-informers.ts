import { LABELS } from "../api/index.js";
import type { Manager, SharedInformer } from "../runtime/index.js";
import { type KubeVirt, kubeVirtKind, type Pod, podKind, type Vmi, vmiKind } from "./kinds.js";
import { CREATED_BY_INDEX, createdByIndexer } from "./vmi/launcher-pod.js";

/** What virt-handler caches: only its own node's share of the cluster. */
export interface NodeInformers {
  readonly vmis: SharedInformer<Vmi>;
  readonly pods: SharedInformer<Pod>;
  readonly kubevirts: SharedInformer<KubeVirt>;
}

/** The VMIs and launcher pods of this node, and the KubeVirt CRs (few: filtered in the cache). */
export function watchNodeInformers(manager: Manager, nodeName: string): NodeInformers {
  return {
    vmis: manager.informer(vmiKind, {
      labelSelector: `${LABELS.nodeName}=${nodeName}`,
      resyncMs: 5 * 60_000, // a look now and then, in case a libvirt event was missed
    }),
    pods: manager.informer(podKind, {
      fieldSelector: `spec.nodeName=${nodeName}`,
      indexers: { [CREATED_BY_INDEX]: createdByIndexer },
    }),
    kubevirts: manager.informer(kubeVirtKind),
  };
}
