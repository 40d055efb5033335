import type { JsonObject } from "../json.js";
import type { TableColumn, TableConvertor } from "../resource-type.js";
import { numberAt, stringMapAt, valueAt } from "./json-read.js";
import { formatLabelSelector, formatLabels } from "./label-selector.js";
import {
  age,
  ageColumn,
  column,
  containerNamesAndImages,
  nameColumn,
  nameOf,
  wideColumn,
} from "./table-format.js";

/** `kubectl get deployments|replicasets|daemonsets` as kube's printers print them. */

const templateColumns: TableColumn[] = [
  wideColumn("Containers", "Names of each container in the template."),
  wideColumn("Images", "Images referenced by each container in the template."),
  wideColumn("Selector", "Label selector for pods."),
];

function templateCells(object: JsonObject): string[] {
  return [
    ...containerNamesAndImages(valueAt(object, "spec", "template", "spec")),
    formatLabelSelector(valueAt(object, "spec", "selector")),
  ];
}

const count = (object: JsonObject, ...path: string[]): number => numberAt(object, ...path) ?? 0;
const integer = { type: "integer" } as const;

export const deploymentTable: TableConvertor = {
  columns: [
    nameColumn,
    column("Ready", "Number of the pod with ready state"),
    column(
      "Up-to-date",
      "Total number of non-terminated pods targeted by this deployment that have the desired template spec.",
      integer,
    ),
    column(
      "Available",
      "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.",
      integer,
    ),
    ageColumn,
    ...templateColumns,
  ],
  cells: (deployment, now) => [
    nameOf(deployment),
    `${count(deployment, "status", "readyReplicas")}/${count(deployment, "spec", "replicas")}`,
    count(deployment, "status", "updatedReplicas"),
    count(deployment, "status", "availableReplicas"),
    age(deployment, now),
    ...templateCells(deployment),
  ],
};

export const replicaSetTable: TableConvertor = {
  columns: [
    nameColumn,
    column("Desired", "Replicas is the number of desired replicas.", integer),
    column("Current", "Replicas is the most recently observed number of replicas.", integer),
    column("Ready", "The number of ready replicas for this replica set.", integer),
    ageColumn,
    ...templateColumns,
  ],
  cells: (replicaSet, now) => [
    nameOf(replicaSet),
    count(replicaSet, "spec", "replicas"),
    count(replicaSet, "status", "replicas"),
    count(replicaSet, "status", "readyReplicas"),
    age(replicaSet, now),
    ...templateCells(replicaSet),
  ],
};

export const daemonSetTable: TableConvertor = {
  columns: [
    nameColumn,
    column("Desired", "The total number of nodes that should be running the daemon pod.", integer),
    column(
      "Current",
      "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.",
      integer,
    ),
    column(
      "Ready",
      "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.",
      integer,
    ),
    column("Up-to-date", "The total number of nodes that are running updated daemon pod", integer),
    column(
      "Available",
      "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available.",
      integer,
    ),
    column("Node Selector", "NodeSelector is a selector which must be true for the pod to fit on a node."),
    ageColumn,
    ...templateColumns,
  ],
  cells: (daemonSet, now) => [
    nameOf(daemonSet),
    count(daemonSet, "status", "desiredNumberScheduled"),
    count(daemonSet, "status", "currentNumberScheduled"),
    count(daemonSet, "status", "numberReady"),
    count(daemonSet, "status", "updatedNumberScheduled"),
    count(daemonSet, "status", "numberAvailable"),
    formatLabels(stringMapAt(daemonSet, "spec", "template", "spec", "nodeSelector")),
    age(daemonSet, now),
    ...templateCells(daemonSet),
  ],
};
