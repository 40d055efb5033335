import type { FieldSemantics, FieldSemanticsLookup } from "../resource-type.js";

/**
 * The strategic-merge semantics of the built-in kinds, transcribed from the `patchStrategy` /
 * `patchMergeKey` (and `listMapKey`) tags of k8s.io/api. Only fields that differ from the default
 * (maps merge, lists are atomic) are listed. `keys[0]` is the patchMergeKey; further keys are the
 * list-map keys server-side apply uses.
 */
interface SemanticsNode {
  semantics?: FieldSemantics;
  fields?: SemanticsTree;
}
type SemanticsTree = Readonly<Record<string, SemanticsNode>>;

const byKey = (...keys: string[]): SemanticsNode => ({ semantics: { list: { type: "map", keys } } });
const withFields = (node: SemanticsNode, fields: SemanticsTree): SemanticsNode => ({ ...node, fields });
const nested = (fields: SemanticsTree): SemanticsNode => ({ fields });
const mergedSet: SemanticsNode = { semantics: { list: { type: "set" } } };
const atomicList: SemanticsNode = { semantics: { list: { type: "atomic" } } };
const conditionsByType: SemanticsTree = { conditions: byKey("type") };

const objectMeta: SemanticsTree = {
  finalizers: mergedSet,
  ownerReferences: byKey("uid"),
  managedFields: atomicList,
};

/** Container and EphemeralContainerCommon carry the same tags. */
const container: SemanticsTree = {
  ports: byKey("containerPort", "protocol"),
  env: byKey("name"),
  volumeMounts: byKey("mountPath"),
  volumeDevices: byKey("devicePath"),
  resizePolicy: atomicList,
  envFrom: atomicList,
};

const podSpec: SemanticsTree = {
  volumes: { semantics: { list: { type: "map", keys: ["name"] }, retainKeys: true } },
  initContainers: withFields(byKey("name"), container),
  containers: withFields(byKey("name"), container),
  ephemeralContainers: withFields(byKey("name"), container),
  imagePullSecrets: byKey("name"),
  hostAliases: byKey("ip"),
  tolerations: atomicList,
  topologySpreadConstraints: byKey("topologyKey", "whenUnsatisfiable"),
  schedulingGates: byKey("name"),
  resourceClaims: { semantics: { list: { type: "map", keys: ["name"] }, retainKeys: true } },
  readinessGates: atomicList,
};

const podTemplateSpec: SemanticsTree = { metadata: nested(objectMeta), spec: nested(podSpec) };

const podStatus: SemanticsTree = {
  conditions: byKey("type"),
  podIPs: byKey("ip"),
  hostIPs: byKey("ip"),
};

/** Workloads whose `spec.template` is a pod template and whose status has typed conditions. */
const podTemplateWorkload: SemanticsTree = {
  spec: nested({ template: nested(podTemplateSpec) }),
  status: nested(conditionsByType),
};

const kindTrees: Readonly<Record<string, SemanticsTree>> = {
  "/Pod": { spec: nested(podSpec), status: nested(podStatus) },
  "/PodTemplate": { template: nested(podTemplateSpec) },
  "/ReplicationController": podTemplateWorkload,
  "/Service": { spec: nested({ ports: byKey("port", "protocol") }), status: nested(conditionsByType) },
  "/Node": {
    spec: nested({ podCIDRs: mergedSet, taints: atomicList }),
    status: nested({ conditions: byKey("type"), addresses: byKey("type") }),
  },
  "/Namespace": { status: nested(conditionsByType) },
  "/PersistentVolumeClaim": { status: nested(conditionsByType) },
  "apps/Deployment": podTemplateWorkload,
  "apps/ReplicaSet": podTemplateWorkload,
  "apps/DaemonSet": podTemplateWorkload,
  "apps/StatefulSet": podTemplateWorkload,
  "batch/Job": podTemplateWorkload,
  "batch/CronJob": {
    spec: nested({
      jobTemplate: nested({
        metadata: nested(objectMeta),
        spec: nested({ template: nested(podTemplateSpec) }),
      }),
    }),
  },
  "autoscaling/HorizontalPodAutoscaler": { status: nested(conditionsByType) },
  "policy/PodDisruptionBudget": { status: nested(conditionsByType) },
  "apiextensions.k8s.io/CustomResourceDefinition": { status: nested(conditionsByType) },
};

/**
 * The merge semantics of a built-in kind. Every kind gets ObjectMeta's (`metadata.finalizers`,
 * `metadata.ownerReferences`); kinds without special fields (ConfigMap, Secret, Event, ...) get
 * nothing else.
 */
export function builtinFieldSemantics(group: string, kind: string): FieldSemanticsLookup {
  const root: SemanticsTree = { ...(kindTrees[`${group}/${kind}`] ?? {}), metadata: nested(objectMeta) };
  return (path) => lookup(root, path);
}

function lookup(root: SemanticsTree, path: readonly string[]): FieldSemantics | undefined {
  let tree: SemanticsTree | undefined = root;
  let node: SemanticsNode | undefined;
  for (const segment of path) {
    // Own properties only: a field named like an Object.prototype member is just unknown.
    node = tree !== undefined && Object.hasOwn(tree, segment) ? tree[segment] : undefined;
    if (node === undefined) return undefined;
    tree = node.fields;
  }
  return node?.semantics;
}
