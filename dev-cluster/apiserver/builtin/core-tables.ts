import type { JsonObject } from "../json.js";
import type { TableConvertor } from "../resource-type.js";
import { arrayAt, booleanAt, objectAt, objectsAt, stringAt, stringMapAt, valueAt } from "./json-read.js";
import { formatLabels } from "./label-selector.js";
import { age, ageColumn, column, listWithMore, nameColumn, nameOf, wideColumn } from "./table-format.js";

/** `kubectl get` tables of core/v1 kinds other than pods and events, as kube's printers print them. */

const integer = { type: "integer" } as const;

export const namespaceTable: TableConvertor = {
  columns: [nameColumn, column("Status", "The status of the namespace"), ageColumn],
  cells: (namespace, now) => [
    nameOf(namespace),
    stringAt(namespace, "status", "phase") ?? "",
    age(namespace, now),
  ],
};

function nodeStatus(node: JsonObject): string {
  const ready = objectsAt(node, "status", "conditions").find((c) => c.type === "Ready");
  const parts = [ready ? (ready.status === "True" ? "Ready" : "NotReady") : "Unknown"];
  if (booleanAt(node, "spec", "unschedulable") === true) parts.push("SchedulingDisabled");
  return parts.join(",");
}

/** findNodeRoles: `node-role.kubernetes.io/<role>` labels and the legacy `kubernetes.io/role`. */
function nodeRoles(node: JsonObject): string {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(stringMapAt(node, "metadata", "labels"))) {
    if (key.startsWith("node-role.kubernetes.io/")) {
      const role = key.slice("node-role.kubernetes.io/".length);
      if (role !== "") roles.add(role);
    } else if (key === "kubernetes.io/role" && value !== "") {
      roles.add(value);
    }
  }
  return roles.size === 0 ? "<none>" : [...roles].sort().join(",");
}

function nodeAddress(node: JsonObject, type: string): string {
  return (
    stringAt(
      objectsAt(node, "status", "addresses").find((a) => a.type === type),
      "address",
    ) ?? "<none>"
  );
}

const nodeInfo = (node: JsonObject, field: string): string =>
  stringAt(node, "status", "nodeInfo", field) || "<unknown>";

export const nodeTable: TableConvertor = {
  columns: [
    nameColumn,
    column("Status", "The status of the node"),
    column("Roles", "The roles of the node"),
    ageColumn,
    column("Version", "Kubelet Version reported by the node."),
    wideColumn("Internal-IP", "List of addresses reachable to the node."),
    wideColumn("External-IP", "List of addresses reachable to the node."),
    wideColumn(
      "OS-Image",
      "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).",
    ),
    wideColumn(
      "Kernel-Version",
      "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
    ),
    wideColumn(
      "Container-Runtime",
      "ContainerRuntime Version reported by the node through runtime remote API.",
    ),
  ],
  cells: (node, now) => [
    nameOf(node),
    nodeStatus(node),
    nodeRoles(node),
    age(node, now),
    stringAt(node, "status", "nodeInfo", "kubeletVersion") ?? "",
    nodeAddress(node, "InternalIP"),
    nodeAddress(node, "ExternalIP"),
    nodeInfo(node, "osImage"),
    nodeInfo(node, "kernelVersion"),
    nodeInfo(node, "containerRuntimeVersion"),
  ],
};

const strings = (value: unknown[]): string[] => value.filter((v): v is string => typeof v === "string");

function serviceExternalIp(service: JsonObject): string {
  const externalIps = strings(arrayAt(service, "spec", "externalIPs"));
  switch (stringAt(service, "spec", "type")) {
    case "ClusterIP":
    case "NodePort":
      return externalIps.length > 0 ? externalIps.join(",") : "<none>";
    case "LoadBalancer": {
      const ingress = objectsAt(service, "status", "loadBalancer", "ingress").map(
        (i) => stringAt(i, "ip") || stringAt(i, "hostname") || "",
      );
      const all = [...ingress.filter((ip) => ip !== ""), ...externalIps];
      return all.length > 0 ? all.join(",") : "<pending>";
    }
    case "ExternalName":
      return stringAt(service, "spec", "externalName") ?? "";
    default:
      return "<unknown>";
  }
}

function servicePorts(service: JsonObject): string {
  const ports = objectsAt(service, "spec", "ports").map((port) => {
    const protocol = stringAt(port, "protocol") ?? "";
    const nodePort = valueAt(port, "nodePort");
    const number = String(valueAt(port, "port") ?? 0);
    return typeof nodePort === "number" && nodePort > 0
      ? `${number}:${nodePort}/${protocol}`
      : `${number}/${protocol}`;
  });
  return ports.length > 0 ? ports.join(",") : "<none>";
}

export const serviceTable: TableConvertor = {
  columns: [
    nameColumn,
    column("Type", "type determines how the Service is exposed."),
    column("Cluster-IP", "clusterIP is the IP address of the service and is usually assigned randomly."),
    column(
      "External-IP",
      "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.",
    ),
    column("Port(s)", "The list of ports that are exposed by this service."),
    ageColumn,
    wideColumn(
      "Selector",
      "Route service traffic to pods with label keys and values matching this selector.",
    ),
  ],
  cells: (service, now) => [
    nameOf(service),
    stringAt(service, "spec", "type") ?? "",
    strings(arrayAt(service, "spec", "clusterIPs"))[0] || stringAt(service, "spec", "clusterIP") || "<none>",
    serviceExternalIp(service),
    servicePorts(service),
    age(service, now),
    formatLabels(stringMapAt(service, "spec", "selector")),
  ],
};

const size = (object: JsonObject, field: string): number => Object.keys(objectAt(object, field) ?? {}).length;

export const configMapTable: TableConvertor = {
  columns: [nameColumn, column("Data", "Data contains the configuration data.", integer), ageColumn],
  cells: (configMap, now) => [
    nameOf(configMap),
    size(configMap, "data") + size(configMap, "binaryData"),
    age(configMap, now),
  ],
};

export const secretTable: TableConvertor = {
  columns: [
    nameColumn,
    column("Type", "The type of the secret"),
    column("Data", "The number of entries in the secret", integer),
    ageColumn,
  ],
  cells: (secret, now) => [
    nameOf(secret),
    stringAt(secret, "type") ?? "",
    size(secret, "data"),
    age(secret, now),
  ],
};

export const serviceAccountTable: TableConvertor = {
  columns: [
    nameColumn,
    column(
      "Secrets",
      "Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.",
      integer,
    ),
    ageColumn,
  ],
  cells: (account, now) => [nameOf(account), arrayAt(account, "secrets").length, age(account, now)],
};

/** formatEndpoints: up to three `ip:port` pairs, then ` + N more...`. */
function endpointsText(endpoints: JsonObject): string {
  const subsets = objectsAt(endpoints, "subsets");
  if (subsets.length === 0) return "<none>";
  const entries = subsets.flatMap((subset) => {
    const ips = objectsAt(subset, "addresses").map((a) => stringAt(a, "ip") ?? "");
    const ports = objectsAt(subset, "ports");
    if (ports.length === 0) return ips;
    return ports.flatMap((port) =>
      ips.map((ip) => `${ip.includes(":") ? `[${ip}]` : ip}:${String(valueAt(port, "port") ?? 0)}`),
    );
  });
  return listWithMore(entries, 3, "");
}

export const endpointsTable: TableConvertor = {
  columns: [nameColumn, column("Endpoints", "Endpoints of the service"), ageColumn],
  cells: (endpoints, now) => [nameOf(endpoints), endpointsText(endpoints), age(endpoints, now)],
};
