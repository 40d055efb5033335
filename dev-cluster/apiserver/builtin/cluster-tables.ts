import type { JsonObject } from "../json.js";
import type { TableConvertor } from "../resource-type.js";
import { arrayAt, booleanAt, objectAt, objectsAt, stringAt, valueAt } from "./json-read.js";
import {
  age,
  ageColumn,
  column,
  createdAt,
  listWithMore,
  nameColumn,
  nameOf,
  wideColumn,
} from "./table-format.js";

/** `kubectl get` tables of the cluster-level kinds (coordination, rbac, admission, scheduling, discovery, aggregation). */

export const leaseTable: TableConvertor = {
  columns: [
    nameColumn,
    column("Holder", "holderIdentity contains the identity of the holder of a current lease."),
    ageColumn,
  ],
  cells: (lease, now) => [nameOf(lease), stringAt(lease, "spec", "holderIdentity") ?? "", age(lease, now)],
};

export const roleTable: TableConvertor = {
  columns: [
    nameColumn,
    column(
      "Created At",
      "CreationTimestamp is a timestamp representing the server time when this object was created.",
    ),
  ],
  cells: (role) => [nameOf(role), createdAt(role)],
};

function subjectsOf(binding: JsonObject, kind: string): string {
  return objectsAt(binding, "subjects")
    .filter((subject) => subject.kind === kind)
    .map((subject) => {
      const name = stringAt(subject, "name") ?? "";
      return kind === "ServiceAccount" ? `${stringAt(subject, "namespace") ?? ""}/${name}` : name;
    })
    .join(", ");
}

export const roleBindingTable: TableConvertor = {
  columns: [
    nameColumn,
    column(
      "Role",
      "RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace.",
    ),
    ageColumn,
    wideColumn("Users", "Users in the roleBinding"),
    wideColumn("Groups", "Groups in the roleBinding"),
    wideColumn("ServiceAccounts", "ServiceAccounts in the roleBinding"),
  ],
  cells: (binding, now) => [
    nameOf(binding),
    `${stringAt(binding, "roleRef", "kind") ?? ""}/${stringAt(binding, "roleRef", "name") ?? ""}`,
    age(binding, now),
    subjectsOf(binding, "User"),
    subjectsOf(binding, "Group"),
    subjectsOf(binding, "ServiceAccount"),
  ],
};

export const webhookConfigurationTable: TableConvertor = {
  columns: [
    nameColumn,
    column("Webhooks", "Webhooks indicates the number of webhooks in the configuration.", {
      type: "integer",
    }),
    ageColumn,
  ],
  cells: (configuration, now) => [
    nameOf(configuration),
    arrayAt(configuration, "webhooks").length,
    age(configuration, now),
  ],
};

export const priorityClassTable: TableConvertor = {
  columns: [
    nameColumn,
    column("Value", "value represents the integer value of this priority class.", { type: "integer" }),
    column(
      "Global-Default",
      "globalDefault specifies whether this PriorityClass should be considered as the default priority.",
      { type: "boolean" },
    ),
    ageColumn,
    column("PreemptionPolicy", "PreemptionPolicy is the Policy for preempting pods with lower priority."),
  ],
  cells: (priorityClass, now) => [
    nameOf(priorityClass),
    valueAt(priorityClass, "value") ?? 0,
    booleanAt(priorityClass, "globalDefault") ?? false,
    age(priorityClass, now),
    stringAt(priorityClass, "preemptionPolicy") ?? "",
  ],
};

function slicePorts(slice: JsonObject): string {
  const ports = objectsAt(slice, "ports").map((port) => {
    const number = valueAt(port, "port");
    if (typeof number === "number") return String(number);
    return stringAt(port, "name") ?? "*";
  });
  return listWithMore(ports, 3, "<unset>");
}

function sliceEndpoints(slice: JsonObject): string {
  const addresses = objectsAt(slice, "endpoints").flatMap((endpoint) =>
    arrayAt(endpoint, "addresses").filter((a): a is string => typeof a === "string"),
  );
  return listWithMore(addresses, 3, "<unset>");
}

export const endpointSliceTable: TableConvertor = {
  columns: [
    nameColumn,
    column("AddressType", "addressType specifies the type of address carried by this EndpointSlice."),
    column("Ports", "ports specifies the list of network ports exposed by each endpoint in this slice."),
    column("Endpoints", "endpoints is a list of unique endpoints in this slice."),
    ageColumn,
  ],
  cells: (slice, now) => [
    nameOf(slice),
    stringAt(slice, "addressType") ?? "",
    slicePorts(slice),
    sliceEndpoints(slice),
    age(slice, now),
  ],
};

function apiServiceAvailability(apiService: JsonObject): string {
  const condition = objectsAt(apiService, "status", "conditions").find((c) => c.type === "Available");
  if (!condition) return "Unknown";
  const status = stringAt(condition, "status") ?? "";
  const reason = stringAt(condition, "reason") ?? "";
  return status === "True" || reason === "" ? status : `${status} (${reason})`;
}

export const apiServiceTable: TableConvertor = {
  columns: [
    nameColumn,
    column("Service", "The reference to the service that hosts this API endpoint."),
    column("Available", "Whether this service is available."),
    ageColumn,
  ],
  cells: (apiService, now) => {
    const service = objectAt(apiService, "spec", "service");
    const reference = service
      ? `${stringAt(service, "namespace") ?? ""}/${stringAt(service, "name") ?? ""}`
      : "Local";
    return [nameOf(apiService), reference, apiServiceAvailability(apiService), age(apiService, now)];
  },
};
