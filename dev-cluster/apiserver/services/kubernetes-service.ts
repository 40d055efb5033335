import { isIPv6 } from "node:net";
import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import type { JsonObject, JsonValue } from "../json.js";
import type { ObjectService } from "../objects/object-service.js";
import { KUBERNETES_SERVICE } from "./service-allocator.js";

/** Where clients reach the API server: what the `kubernetes` Service's endpoints hold. */
export interface ApiServerEndpoint {
  ip: string;
  port: number;
}

const FIELD_MANAGER = "kube-apiserver";
const PORT_NAME = "https";

interface Desired {
  group: string;
  plural: string;
  object: JsonObject;
  /** The fields the API server owns; the rest of a stored object is left as it is. */
  owned: string[];
}

function desiredObjects(endpoint: ApiServerEndpoint, clusterIp: string): Desired[] {
  const { namespace, name } = KUBERNETES_SERVICE;
  const port = { name: PORT_NAME, port: endpoint.port, protocol: "TCP" };
  return [
    {
      group: "",
      plural: "services",
      owned: ["spec.ports"],
      object: {
        apiVersion: "v1",
        kind: "Service",
        metadata: { name, namespace, labels: { component: "apiserver", provider: "kubernetes" } },
        spec: {
          type: "ClusterIP",
          clusterIP: clusterIp,
          ports: [{ name: PORT_NAME, port: 443, protocol: "TCP", targetPort: endpoint.port }],
          sessionAffinity: "None",
        },
      },
    },
    {
      group: "",
      plural: "endpoints",
      owned: ["subsets"],
      object: {
        apiVersion: "v1",
        kind: "Endpoints",
        metadata: { name, namespace, labels: { "endpointslice.kubernetes.io/skip-mirror": "true" } },
        subsets: [{ addresses: [{ ip: endpoint.ip }], ports: [port] }],
      },
    },
    {
      group: "discovery.k8s.io",
      plural: "endpointslices",
      owned: ["endpoints", "ports"],
      object: {
        apiVersion: "discovery.k8s.io/v1",
        kind: "EndpointSlice",
        metadata: { name, namespace, labels: { "kubernetes.io/service-name": name } },
        addressType: isIPv6(endpoint.ip) ? "IPv6" : "IPv4",
        endpoints: [{ addresses: [endpoint.ip], conditions: { ready: true } }],
        ports: [port],
      },
    },
  ];
}

function valueAtPath(object: JsonObject, path: string): JsonValue | undefined {
  let value: JsonValue | undefined = object;
  for (const key of path.split(".")) {
    value = value !== null && typeof value === "object" && !Array.isArray(value) ? value[key] : undefined;
  }
  return value;
}

function setAtPath(object: JsonObject, path: string, value: JsonValue | undefined): void {
  const keys = path.split(".");
  const last = keys.pop() ?? "";
  let parent = object;
  for (const key of keys) {
    const child = parent[key];
    if (child === null || typeof child !== "object" || Array.isArray(child)) parent[key] = {};
    parent = parent[key] as JsonObject;
  }
  if (value === undefined) delete parent[last];
  else parent[last] = value;
}

/**
 * Makes sure `default/kubernetes` exists, as kube-apiserver's reconciler does at start-up: the
 * Service (cluster IP `clusterIp`, port 443 to the API server's port) and its Endpoints and
 * EndpointSlice pointing at `endpoint`. Objects that exist are corrected where the API server's
 * port or address changed; nothing else of them is touched.
 */
export function ensureKubernetesService(
  service: ObjectService,
  endpoint: ApiServerEndpoint,
  clusterIp: string,
): void {
  for (const desired of desiredObjects(endpoint, clusterIp)) {
    const type = service.registry.find(desired.group, "v1", desired.plural);
    if (!type) throw new Error(`the ${desired.plural} resource is not registered`);
    const { namespace, name } = KUBERNETES_SERVICE;
    const stored = service.find(type, namespace, name);
    if (!stored) {
      service.create(type, namespace, desired.object, { fieldManager: FIELD_MANAGER });
      continue;
    }
    const stale = desired.owned.filter(
      (path) => !jsonEqual(valueAtPath(stored, path), valueAtPath(desired.object, path)),
    );
    if (stale.length === 0) continue;
    for (const path of stale) setAtPath(stored, path, valueAtPath(desired.object, path));
    service.update(type, namespace, name, stored, { fieldManager: FIELD_MANAGER });
  }
}
