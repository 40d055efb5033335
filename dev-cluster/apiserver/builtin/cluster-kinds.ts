import { MutatingWebhookConfiguration } from "kubernetes-models/admissionregistration.k8s.io/v1/MutatingWebhookConfiguration";
import { ValidatingWebhookConfiguration } from "kubernetes-models/admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration";
import { CustomResourceDefinition } from "kubernetes-models/apiextensions.k8s.io/v1/CustomResourceDefinition";
import { APIService } from "kubernetes-models/apiregistration.k8s.io/v1/APIService";
import { Lease } from "kubernetes-models/coordination.k8s.io/v1/Lease";
import { EndpointSlice } from "kubernetes-models/discovery.k8s.io/v1/EndpointSlice";
import { Event } from "kubernetes-models/events.k8s.io/v1/Event";
import { ClusterRole } from "kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole";
import { ClusterRoleBinding } from "kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding";
import { Role } from "kubernetes-models/rbac.authorization.k8s.io/v1/Role";
import { RoleBinding } from "kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding";
import { PriorityClass } from "kubernetes-models/scheduling.k8s.io/v1/PriorityClass";
import { validateCustomResourceDefinition } from "../crd/crd-validation.js";
import type { BuiltinKind } from "./builtin-kind.js";
import {
  defaultApiService,
  defaultCustomResourceDefinition,
  defaultMutatingWebhookConfiguration,
  defaultPriorityClass,
  defaultRoleBinding,
  defaultValidatingWebhookConfiguration,
} from "./cluster-defaults.js";
import {
  apiServiceTable,
  endpointSliceTable,
  leaseTable,
  priorityClassTable,
  roleBindingTable,
  roleTable,
  webhookConfigurationTable,
} from "./cluster-tables.js";
import { defaultEndpointSlice } from "./core-defaults.js";
import { eventsV1Table } from "./event-table.js";
import { eventsV1Fields } from "./selectable-fields.js";
import { createdAtTable } from "./table-format.js";

const rbac = { group: "rbac.authorization.k8s.io", version: "v1", nameRule: "pathSegment" } as const;
const admission: Pick<BuiltinKind, "group" | "version" | "namespaced" | "categories"> = {
  group: "admissionregistration.k8s.io",
  version: "v1",
  namespaced: false,
  categories: ["api-extensions"],
};

export const clusterKinds: BuiltinKind[] = [
  {
    group: "events.k8s.io",
    version: "v1",
    kind: "Event",
    plural: "events",
    namespaced: true,
    shortNames: ["ev"],
    model: "EventsV1Event",
    validator: Event,
    nameRule: "subdomain",
    description:
      "Event is a report of an event somewhere in the cluster. It generally denotes some state change in the system. Events have a limited retention time and triggers and messages may evolve with time.",
    applyDefaults: () => {},
    selectableFields: eventsV1Fields,
    table: eventsV1Table,
  },
  {
    group: "coordination.k8s.io",
    version: "v1",
    kind: "Lease",
    plural: "leases",
    namespaced: true,
    model: "V1Lease",
    validator: Lease,
    nameRule: "subdomain",
    description: "Lease defines a lease concept.",
    table: leaseTable,
  },
  {
    ...rbac,
    kind: "Role",
    plural: "roles",
    namespaced: true,
    model: "V1Role",
    validator: Role,
    description:
      "Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.",
    table: roleTable,
  },
  {
    ...rbac,
    kind: "RoleBinding",
    plural: "rolebindings",
    namespaced: true,
    model: "V1RoleBinding",
    validator: RoleBinding,
    description:
      "RoleBinding references a role, but does not contain it. It can reference a Role in the same namespace or a ClusterRole in the global namespace.",
    applyDefaults: defaultRoleBinding,
    table: roleBindingTable,
  },
  {
    ...rbac,
    kind: "ClusterRole",
    plural: "clusterroles",
    namespaced: false,
    model: "V1ClusterRole",
    validator: ClusterRole,
    description:
      "ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.",
    table: roleTable,
  },
  {
    ...rbac,
    kind: "ClusterRoleBinding",
    plural: "clusterrolebindings",
    namespaced: false,
    model: "V1ClusterRoleBinding",
    validator: ClusterRoleBinding,
    description:
      "ClusterRoleBinding references a ClusterRole, but not contain it. It can reference a ClusterRole in the global namespace, and adds who information via Subject.",
    applyDefaults: defaultRoleBinding,
    table: roleBindingTable,
  },
  {
    group: "apiextensions.k8s.io",
    version: "v1",
    kind: "CustomResourceDefinition",
    plural: "customresourcedefinitions",
    namespaced: false,
    shortNames: ["crd", "crds"],
    categories: ["api-extensions"],
    statusSubresource: true,
    model: "V1CustomResourceDefinition",
    validator: CustomResourceDefinition,
    nameRule: "subdomain",
    description:
      "CustomResourceDefinition represents a resource that should be exposed on the API server.  Its name MUST be in the format <.spec.name>.<.spec.group>.",
    applyDefaults: defaultCustomResourceDefinition,
    // Structural schemas, names, versions and printer columns, as apiextensions-apiserver checks them.
    validate: (object, old) => validateCustomResourceDefinition(object, old),
    table: createdAtTable,
  },
  {
    group: "apiregistration.k8s.io",
    version: "v1",
    kind: "APIService",
    plural: "apiservices",
    namespaced: false,
    categories: ["api-extensions"],
    statusSubresource: true,
    model: "V1APIService",
    validator: APIService,
    // Named `<version>.<group>`, and `v1.` for the core group.
    nameRule: "pathSegment",
    description:
      'APIService represents a server for a particular GroupVersion. Name must be "version.group".',
    applyDefaults: defaultApiService,
    table: apiServiceTable,
  },
  {
    ...admission,
    kind: "MutatingWebhookConfiguration",
    plural: "mutatingwebhookconfigurations",
    model: "V1MutatingWebhookConfiguration",
    validator: MutatingWebhookConfiguration,
    nameRule: "subdomain",
    description:
      "MutatingWebhookConfiguration describes the configuration of and admission webhook that accept or reject and may change the object.",
    applyDefaults: defaultMutatingWebhookConfiguration,
    table: webhookConfigurationTable,
  },
  {
    ...admission,
    kind: "ValidatingWebhookConfiguration",
    plural: "validatingwebhookconfigurations",
    model: "V1ValidatingWebhookConfiguration",
    validator: ValidatingWebhookConfiguration,
    nameRule: "subdomain",
    description:
      "ValidatingWebhookConfiguration describes the configuration of and admission webhook that accept or reject and object without changing it.",
    applyDefaults: defaultValidatingWebhookConfiguration,
    table: webhookConfigurationTable,
  },
  {
    group: "scheduling.k8s.io",
    version: "v1",
    kind: "PriorityClass",
    plural: "priorityclasses",
    namespaced: false,
    shortNames: ["pc"],
    model: "V1PriorityClass",
    validator: PriorityClass,
    nameRule: "subdomain",
    description:
      "PriorityClass defines mapping from a priority class name to the priority integer value. The value can be any valid integer.",
    applyDefaults: defaultPriorityClass,
    table: priorityClassTable,
  },
  {
    group: "discovery.k8s.io",
    version: "v1",
    kind: "EndpointSlice",
    plural: "endpointslices",
    namespaced: true,
    model: "V1EndpointSlice",
    validator: EndpointSlice,
    nameRule: "subdomain",
    description:
      "EndpointSlice represents a subset of the endpoints that implement a service. For a given service there may be multiple EndpointSlice objects, selected by labels, which must be joined to produce the full set of endpoints.",
    applyDefaults: defaultEndpointSlice,
    table: endpointSliceTable,
  },
];
