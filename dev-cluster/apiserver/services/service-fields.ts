import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";

/**
 * What a Service's type asks of the allocators, and the values it holds, read leniently: the
 * allocation runs before validation, so any field may be missing or of the wrong type.
 */

export function specOf(service: JsonObject): JsonObject {
  if (!isJsonObject(service.spec)) service.spec = {};
  return service.spec as JsonObject;
}

function typeOf(spec: JsonObject): string {
  return typeof spec.type === "string" && spec.type !== "" ? spec.type : "ClusterIP";
}

export function needsClusterIp(spec: JsonObject): boolean {
  return typeOf(spec) !== "ExternalName";
}

export function needsNodePorts(spec: JsonObject): boolean {
  const type = typeOf(spec);
  return type === "NodePort" || (type === "LoadBalancer" && spec.allocateLoadBalancerNodePorts !== false);
}

export function needsHealthCheckNodePort(spec: JsonObject): boolean {
  return typeOf(spec) === "LoadBalancer" && spec.externalTrafficPolicy === "Local";
}

export function hasSelector(spec: JsonObject): boolean {
  return isJsonObject(spec.selector) && Object.keys(spec.selector).length > 0;
}

export function portsOf(spec: JsonObject): JsonObject[] {
  return Array.isArray(spec.ports) ? spec.ports.filter(isJsonObject) : [];
}

/** A port number that is set (neither absent nor 0). */
export function setPort(value: JsonValue | undefined): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value !== 0 ? value : undefined;
}

export function clusterIpsOf(spec: JsonObject): string[] {
  const ips = Array.isArray(spec.clusterIPs) ? spec.clusterIPs.filter((ip) => typeof ip === "string") : [];
  const single = typeof spec.clusterIP === "string" ? spec.clusterIP : "";
  return single !== "" && !ips.includes(single) ? [single, ...ips] : ips;
}

/** Every node port a stored service holds (its ports' and its health check's). */
export function nodePortsOf(spec: JsonObject): number[] {
  const ports = portsOf(spec).flatMap((port) => setPort(port.nodePort) ?? []);
  const healthCheck = setPort(spec.healthCheckNodePort);
  return healthCheck === undefined ? ports : [...ports, healthCheck];
}
