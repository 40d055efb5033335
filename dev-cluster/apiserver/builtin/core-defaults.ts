import type { JsonObject } from "../json.js";
import {
  arrayAt,
  childObject,
  defaultString,
  defaultValue,
  numberAt,
  objectAt,
  objectsAt,
  stringAt,
  valueAt,
} from "./json-read.js";

/** core/v1 SetDefaults_Service. */
export function defaultService(service: JsonObject): void {
  const spec = childObject(service, "spec");
  defaultString(spec, "sessionAffinity", "None");
  if (spec.sessionAffinity === "None") delete spec.sessionAffinityConfig;
  if (
    spec.sessionAffinity === "ClientIP" &&
    numberAt(spec, "sessionAffinityConfig", "clientIP", "timeoutSeconds") === undefined
  ) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
  }
  defaultString(spec, "type", "ClusterIP");
  for (const port of objectsAt(spec, "ports")) {
    defaultString(port, "protocol", "TCP");
    const target = port.targetPort;
    if (target === undefined || target === null || target === 0 || target === "")
      port.targetPort = port.port ?? 0;
  }
  const type = stringAt(spec, "type");
  const externallyAccessible =
    type === "LoadBalancer" ||
    type === "NodePort" ||
    (type === "ClusterIP" && arrayAt(spec, "externalIPs").length > 0);
  if (externallyAccessible) defaultString(spec, "externalTrafficPolicy", "Cluster");
  if (type === "ClusterIP" || type === "NodePort" || type === "LoadBalancer") {
    defaultValue(spec, "internalTrafficPolicy", "Cluster");
  }
  if (type === "LoadBalancer") defaultValue(spec, "allocateLoadBalancerNodePorts", true);
}

/**
 * SetDefaults_Secret, plus what the v1 conversion does with `stringData`: it is write-only and
 * merged into `data` (base64-encoded), overriding keys present in both.
 */
export function defaultSecret(secret: JsonObject): void {
  defaultString(secret, "type", "Opaque");
  const stringData = objectAt(secret, "stringData");
  if (stringData === undefined) {
    if (secret.stringData === null) delete secret.stringData;
    return;
  }
  const data = childObject(secret, "data");
  for (const [key, value] of Object.entries(stringData)) {
    if (typeof value === "string") data[key] = Buffer.from(value, "utf8").toString("base64");
  }
  delete secret.stringData;
}

/**
 * A namespace is Active until deleted and carries the `kubernetes` finalizer the namespace
 * controller removes. Like kube (which sets it on create only), an explicitly empty list is kept,
 * so a namespace whose finalizer was removed does not get it back.
 */
export function defaultNamespace(namespace: JsonObject): void {
  const spec = childObject(namespace, "spec");
  const finalizers = valueAt(spec, "finalizers");
  if (
    (finalizers === undefined || finalizers === null) &&
    stringAt(namespace, "metadata", "deletionTimestamp") === undefined
  ) {
    spec.finalizers = ["kubernetes"];
  }
  defaultString(childObject(namespace, "status"), "phase", "Active");
}

/** core/v1 SetDefaults_Endpoints. */
export function defaultEndpoints(endpoints: JsonObject): void {
  for (const subset of objectsAt(endpoints, "subsets")) {
    for (const port of objectsAt(subset, "ports")) defaultString(port, "protocol", "TCP");
  }
}

/** discovery/v1 SetDefaults_EndpointPort. */
export function defaultEndpointSlice(slice: JsonObject): void {
  for (const port of objectsAt(slice, "ports")) {
    defaultString(port, "protocol", "TCP");
    defaultValue(port, "name", "");
  }
}
