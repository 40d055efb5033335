import type { JsonObject, JsonValue } from "../json.js";
import {
  clusterIpsOf,
  needsClusterIp,
  needsHealthCheckNodePort,
  needsNodePorts,
  portsOf,
  setPort,
} from "./service-fields.js";

function portName(port: JsonObject): string {
  return typeof port.name === "string" ? port.name : "";
}

/**
 * What kube's PrepareForUpdate does for Services (patchAllocatedValues): a client that replaces
 * or applies a Service without the allocated clusterIP, clusterIPs or node ports keeps the old
 * ones, rather than being told they are immutable. Node ports are matched by port name.
 */
export function carryOverAllocatedValues(spec: JsonObject, oldSpec: JsonObject): void {
  if (needsClusterIp(oldSpec) && needsClusterIp(spec)) {
    if (spec.clusterIP === undefined || spec.clusterIP === null || spec.clusterIP === "") {
      if (typeof oldSpec.clusterIP === "string") spec.clusterIP = oldSpec.clusterIP;
    }
    const sentIps = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [];
    if (sentIps.length === 0 && Array.isArray(oldSpec.clusterIPs) && oldSpec.clusterIPs.length > 0) {
      spec.clusterIPs = [...oldSpec.clusterIPs];
    }
  }
  if (needsNodePorts(oldSpec) && needsNodePorts(spec)) {
    const oldByName = new Map(portsOf(oldSpec).map((port) => [portName(port), setPort(port.nodePort)]));
    const kept = new Set(portsOf(spec).flatMap((port) => setPort(port.nodePort) ?? []));
    for (const port of portsOf(spec)) {
      const previous = oldByName.get(portName(port));
      if (setPort(port.nodePort) === undefined && previous !== undefined && !kept.has(previous)) {
        port.nodePort = previous;
        kept.add(previous);
      }
    }
  }
  if (needsHealthCheckNodePort(oldSpec) && needsHealthCheckNodePort(spec)) {
    if (
      setPort(spec.healthCheckNodePort) === undefined &&
      setPort(oldSpec.healthCheckNodePort) !== undefined
    ) {
      spec.healthCheckNodePort = oldSpec.healthCheckNodePort ?? 0;
    }
  }
}

/**
 * kube's normalizeClusterIPs on update: a client that changed only the singular clusterIP (an
 * old client, or a strategic merge patch) gets clusterIPs to match, so that validation judges
 * the change itself rather than a mismatch between the two fields.
 */
export function normalizeClusterIps(spec: JsonObject, oldSpec: JsonObject): void {
  const ip = typeof spec.clusterIP === "string" ? spec.clusterIP : "";
  const oldIp = typeof oldSpec.clusterIP === "string" ? oldSpec.clusterIP : "";
  if (ip === oldIp || !sameList(stringList(spec.clusterIPs), stringList(oldSpec.clusterIPs))) return;
  if (ip === "") delete spec.clusterIPs;
  else spec.clusterIPs = [ip];
}

function stringList(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/**
 * kube's dropTypeDependentFields: when a type change means a Service no longer needs a cluster
 * IP or node ports, the values the server allocated are released, unless the client changed them
 * (then validation tells it they are not allowed).
 */
export function dropReleasedValues(spec: JsonObject, oldSpec: JsonObject): void {
  if (needsClusterIp(oldSpec) && !needsClusterIp(spec)) {
    if (sameList(clusterIpsOf(spec), clusterIpsOf(oldSpec))) {
      for (const field of ["clusterIP", "clusterIPs", "ipFamilies", "ipFamilyPolicy"]) delete spec[field];
    }
  }
  if (needsNodePorts(oldSpec) && !needsNodePorts(spec)) {
    const oldByName = new Map(portsOf(oldSpec).map((port) => [portName(port), setPort(port.nodePort)]));
    for (const port of portsOf(spec)) {
      const nodePort = setPort(port.nodePort);
      if (nodePort !== undefined && oldByName.get(portName(port)) === nodePort) delete port.nodePort;
    }
  }
  if (needsHealthCheckNodePort(oldSpec) && !needsHealthCheckNodePort(spec)) {
    if (setPort(spec.healthCheckNodePort) === setPort(oldSpec.healthCheckNodePort))
      delete spec.healthCheckNodePort;
  }
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
