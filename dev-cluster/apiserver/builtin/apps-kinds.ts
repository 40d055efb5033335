import { ControllerRevision } from "kubernetes-models/apps/v1/ControllerRevision";
import { DaemonSet } from "kubernetes-models/apps/v1/DaemonSet";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { ReplicaSet } from "kubernetes-models/apps/v1/ReplicaSet";
import type { ScaleSubresource } from "../resource-type.js";
import { defaultDaemonSet, defaultDeployment, defaultReplicaSet } from "./apps-defaults.js";
import { daemonSetTable, deploymentTable, replicaSetTable } from "./apps-tables.js";
import { validateDaemonSet, validateDeployment, validateReplicaSet } from "./apps-validation.js";
import type { BuiltinKind } from "./builtin-kind.js";
import { replicaSetFields } from "./selectable-fields.js";

const apps: Pick<BuiltinKind, "group" | "version" | "namespaced" | "categories" | "statusSubresource"> = {
  group: "apps",
  version: "v1",
  namespaced: true,
  categories: ["all"],
  statusSubresource: true,
};

/**
 * Deployments and ReplicaSets have no `status.selector`: kube formats the Scale's selector from
 * `spec.selector`, which the scale handler does for a LabelSelector object at the path.
 */
const replicasScale: ScaleSubresource = {
  specReplicasPath: ".spec.replicas",
  statusReplicasPath: ".status.replicas",
  labelSelectorPath: ".spec.selector",
};

export const appsKinds: BuiltinKind[] = [
  {
    // KubeVirt keeps a VM's instancetype and preference in ControllerRevisions it owns.
    group: "apps",
    version: "v1",
    namespaced: true,
    kind: "ControllerRevision",
    plural: "controllerrevisions",
    model: "V1ControllerRevision",
    validator: ControllerRevision,
    nameRule: "subdomain",
    description: "ControllerRevision implements an immutable snapshot of state data.",
  },
  {
    ...apps,
    kind: "Deployment",
    plural: "deployments",
    shortNames: ["deploy"],
    scaleSubresource: replicasScale,
    model: "V1Deployment",
    validator: Deployment,
    nameRule: "subdomain",
    description: "Deployment enables declarative updates for Pods and ReplicaSets.",
    applyDefaults: defaultDeployment,
    validate: validateDeployment,
    table: deploymentTable,
  },
  {
    ...apps,
    kind: "DaemonSet",
    plural: "daemonsets",
    shortNames: ["ds"],
    model: "V1DaemonSet",
    validator: DaemonSet,
    nameRule: "subdomain",
    description: "DaemonSet represents the configuration of a daemon set.",
    applyDefaults: defaultDaemonSet,
    validate: validateDaemonSet,
    table: daemonSetTable,
  },
  {
    ...apps,
    kind: "ReplicaSet",
    plural: "replicasets",
    shortNames: ["rs"],
    scaleSubresource: replicasScale,
    model: "V1ReplicaSet",
    validator: ReplicaSet,
    nameRule: "subdomain",
    description: "ReplicaSet ensures that a specified number of pod replicas are running at any given time.",
    applyDefaults: defaultReplicaSet,
    validate: validateReplicaSet,
    selectableFields: replicaSetFields,
    table: replicaSetTable,
  },
];
