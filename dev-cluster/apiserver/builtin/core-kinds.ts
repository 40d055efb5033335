import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Endpoints } from "kubernetes-models/v1/Endpoints";
import { Event } from "kubernetes-models/v1/Event";
import { Namespace } from "kubernetes-models/v1/Namespace";
import { Node } from "kubernetes-models/v1/Node";
import { Pod } from "kubernetes-models/v1/Pod";
import { Secret } from "kubernetes-models/v1/Secret";
import { Service } from "kubernetes-models/v1/Service";
import { ServiceAccount } from "kubernetes-models/v1/ServiceAccount";
import type { BuiltinKind } from "./builtin-kind.js";
import { defaultEndpoints, defaultNamespace, defaultSecret, defaultService } from "./core-defaults.js";
import {
  configMapTable,
  endpointsTable,
  namespaceTable,
  nodeTable,
  secretTable,
  serviceAccountTable,
  serviceTable,
} from "./core-tables.js";
import { validateConfigMap, validateSecret, validateService } from "./core-validation.js";
import { coreEventTable } from "./event-table.js";
import { defaultPod } from "./pod-defaults.js";
import { podTable } from "./pod-table.js";
import { validatePod } from "./pod-validation.js";
import {
  coreEventFields,
  namespaceFields,
  nodeFields,
  podFields,
  secretFields,
} from "./selectable-fields.js";

const core = { group: "", version: "v1" } as const;

export const coreKinds: BuiltinKind[] = [
  {
    ...core,
    kind: "Namespace",
    plural: "namespaces",
    namespaced: false,
    shortNames: ["ns"],
    statusSubresource: true,
    model: "V1Namespace",
    validator: Namespace,
    nameRule: "label",
    description: "Namespace provides a scope for Names. Use of multiple namespaces is optional.",
    applyDefaults: defaultNamespace,
    selectableFields: namespaceFields,
    table: namespaceTable,
  },
  {
    ...core,
    kind: "Pod",
    plural: "pods",
    namespaced: true,
    shortNames: ["po"],
    categories: ["all"],
    statusSubresource: true,
    otherSubresources: ["binding", "log"],
    model: "V1Pod",
    validator: Pod,
    nameRule: "subdomain",
    description:
      "Pod is a collection of containers that can run on a host. This resource is created by clients and scheduled onto hosts.",
    applyDefaults: defaultPod,
    validate: validatePod,
    selectableFields: podFields,
    table: podTable,
  },
  {
    ...core,
    kind: "Node",
    plural: "nodes",
    namespaced: false,
    shortNames: ["no"],
    statusSubresource: true,
    keepsStatusOnCreate: true,
    model: "V1Node",
    validator: Node,
    nameRule: "subdomain",
    description:
      "Node is a worker node in Kubernetes. Each node will have a unique identifier in the cache (i.e. in etcd).",
    selectableFields: nodeFields,
    table: nodeTable,
  },
  {
    ...core,
    kind: "Service",
    plural: "services",
    namespaced: true,
    shortNames: ["svc"],
    categories: ["all"],
    statusSubresource: true,
    model: "V1Service",
    validator: Service,
    nameRule: "dns1035Label",
    description:
      "Service is a named abstraction of software service (for example, mysql) consisting of local port (for example 3306) that the proxy listens on, and the selector that determines which pods will answer requests sent through the proxy.",
    applyDefaults: defaultService,
    validate: validateService,
    table: serviceTable,
  },
  {
    ...core,
    kind: "Endpoints",
    plural: "endpoints",
    namespaced: true,
    shortNames: ["ep"],
    model: "V1Endpoints",
    validator: Endpoints,
    nameRule: "subdomain",
    description: "Endpoints is a collection of endpoints that implement the actual service.",
    applyDefaults: defaultEndpoints,
    table: endpointsTable,
  },
  {
    ...core,
    kind: "ConfigMap",
    plural: "configmaps",
    namespaced: true,
    shortNames: ["cm"],
    model: "V1ConfigMap",
    validator: ConfigMap,
    nameRule: "subdomain",
    description: "ConfigMap holds configuration data for pods to consume.",
    validate: validateConfigMap,
    table: configMapTable,
  },
  {
    ...core,
    kind: "Secret",
    plural: "secrets",
    namespaced: true,
    model: "V1Secret",
    validator: Secret,
    nameRule: "subdomain",
    description:
      "Secret holds secret data of a certain type. The total bytes of the values in the Data field must be less than MaxSecretSize bytes.",
    applyDefaults: defaultSecret,
    validate: validateSecret,
    selectableFields: secretFields,
    table: secretTable,
  },
  {
    ...core,
    kind: "ServiceAccount",
    plural: "serviceaccounts",
    namespaced: true,
    shortNames: ["sa"],
    otherSubresources: ["token"],
    model: "V1ServiceAccount",
    validator: ServiceAccount,
    nameRule: "subdomain",
    description:
      "ServiceAccount binds together: * a name, understood by users, and perhaps by peripheral systems, for an identity * a principal that can be authenticated and authorized * a set of secrets",
    table: serviceAccountTable,
  },
  {
    ...core,
    kind: "Event",
    plural: "events",
    namespaced: true,
    shortNames: ["ev"],
    model: "CoreV1Event",
    validator: Event,
    nameRule: "subdomain",
    description: "Event is a report of an event somewhere in the cluster.",
    selectableFields: coreEventFields,
    table: coreEventTable,
  },
];
