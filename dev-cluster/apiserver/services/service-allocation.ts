import { internalError, invalid, type StatusCause } from "../api-error.js";
import { duplicateField, invalidField } from "../builtin/field-errors.js";
import type { JsonObject } from "../json.js";
import {
  firstFree,
  type Ipv4Range,
  ipv4ToNumber,
  numberToIpv4,
  type PortRange,
  staticBandSize,
} from "./address-ranges.js";
import {
  clusterIpsOf,
  hasSelector,
  needsClusterIp,
  needsHealthCheckNodePort,
  needsNodePorts,
  portsOf,
  setPort,
  specOf,
} from "./service-fields.js";
import { carryOverAllocatedValues, dropReleasedValues, normalizeClusterIps } from "./update-carry-over.js";

export interface AllocationPools {
  serviceRange: Ipv4Range;
  nodePorts: PortRange;
}

/** What the rest of the cluster holds, derived from the stored Services (nothing else is kept). */
export interface AllocationState {
  /** Cluster IPs (as numbers) of the other Services, and the reserved ones. */
  usedIps: ReadonlySet<number>;
  /** Node ports of the other Services. */
  usedNodePorts: ReadonlySet<number>;
  /** The stored Service of the same name, when this write replaces it. */
  old: JsonObject | undefined;
}

function rejected(service: JsonObject, causes: StatusCause[]): never {
  const metadata = service.metadata as JsonObject | undefined;
  throw invalid("Service", "", typeof metadata?.name === "string" ? metadata.name : "", causes);
}

function goStrings(values: string[]): string {
  return `[]string{${values.map((value) => JSON.stringify(value)).join(", ")}}`;
}

/** Checks a cluster IP the client asked for, with kube's messages. */
function checkRequestedIp(
  service: JsonObject,
  ip: string,
  pools: AllocationPools,
  used: ReadonlySet<number>,
): void {
  const value = ipv4ToNumber(ip);
  if (value === undefined) {
    rejected(service, [
      invalidField("spec.clusterIPs[0]", ip, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"),
    ]);
  }
  const { base, size, cidr } = pools.serviceRange;
  const why =
    value <= base || value >= base + size - 1
      ? `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${cidr}`
      : used.has(value)
        ? "provided IP is already allocated"
        : undefined;
  if (why) {
    rejected(service, [
      {
        reason: "FieldValueInvalid",
        message: `Invalid value: ${goStrings([ip])}: failed to allocate IP ${ip}: ${why}`,
        field: "spec.clusterIPs",
      },
    ]);
  }
}

function allocateIp(pools: AllocationPools, used: ReadonlySet<number>): string {
  const { base, size } = pools.serviceRange;
  // Offsets 1..size-2: neither the network nor the broadcast address.
  const band = staticBandSize(size, 16, 256);
  const free = firstFree(base + 1, base + size - 2, band, used);
  if (free === undefined) throw internalError("failed to allocate a serviceIP: range is full");
  return numberToIpv4(free);
}

function assignClusterIp(
  service: JsonObject,
  spec: JsonObject,
  pools: AllocationPools,
  state: AllocationState,
): void {
  if (!needsClusterIp(spec)) return;
  const sentIps = Array.isArray(spec.clusterIPs)
    ? spec.clusterIPs.filter((ip) => typeof ip === "string")
    : [];
  const sent = typeof spec.clusterIP === "string" ? spec.clusterIP : "";
  if (sent !== "" && sentIps.length > 0 && sentIps[0] !== sent) {
    rejected(service, [
      invalidField("spec.clusterIPs[0]", sentIps[0], "must match `clusterIP` when both are specified"),
    ]);
  }
  let ip = sent !== "" ? sent : (sentIps[0] ?? "");
  const oldSpec = state.old && specOf(state.old);
  const oldIps = oldSpec && needsClusterIp(oldSpec) ? clusterIpsOf(oldSpec) : [];
  if (ip === "") ip = allocateIp(pools, state.usedIps);
  // A changed IP of an existing Service is for validation to refuse (the field is immutable).
  else if (ip !== "None" && oldIps.length === 0) checkRequestedIp(service, ip, pools, state.usedIps);
  spec.clusterIP = ip;
  if (sentIps.length === 0) spec.clusterIPs = [ip];
  if (ip !== "None" || hasSelector(spec)) {
    if (spec.ipFamilyPolicy === undefined || spec.ipFamilyPolicy === null)
      spec.ipFamilyPolicy = "SingleStack";
    if (!Array.isArray(spec.ipFamilies) || spec.ipFamilies.length === 0) spec.ipFamilies = ["IPv4"];
  }
}

function checkRequestedPort(
  service: JsonObject,
  field: string,
  port: number,
  pools: AllocationPools,
  used: ReadonlySet<number>,
): void {
  const { first, last } = pools.nodePorts;
  const why =
    port < first || port > last
      ? `provided port is not in the valid range. The range of valid ports is ${first}-${last}`
      : used.has(port)
        ? "provided port is already allocated"
        : undefined;
  if (why) rejected(service, [invalidField(field, port, why)]);
}

function allocatePort(pools: AllocationPools, used: ReadonlySet<number>): number {
  const { first, last } = pools.nodePorts;
  const free = firstFree(first, last, staticBandSize(last - first + 1, 32, 128), used);
  if (free === undefined) throw internalError("failed to allocate a nodePort: range is full");
  return free;
}

function assignNodePorts(
  service: JsonObject,
  spec: JsonObject,
  pools: AllocationPools,
  state: AllocationState,
): void {
  const oldSpec = state.old && specOf(state.old);
  const heldBefore = new Set(
    oldSpec && needsNodePorts(oldSpec) ? portsOf(oldSpec).flatMap((p) => setPort(p.nodePort) ?? []) : [],
  );
  const taken = new Set(state.usedNodePorts);
  const seen = new Set<string>();
  const ports = needsNodePorts(spec) ? portsOf(spec) : [];
  ports.forEach((port, index) => {
    const nodePort = setPort(port.nodePort);
    if (nodePort === undefined) return;
    const field = `spec.ports[${index}].nodePort`;
    const key = `${nodePort}/${typeof port.protocol === "string" ? port.protocol : "TCP"}`;
    if (seen.has(key)) rejected(service, [duplicateField(field, nodePort)]);
    seen.add(key);
    if (!heldBefore.has(nodePort)) checkRequestedPort(service, field, nodePort, pools, state.usedNodePorts);
    taken.add(nodePort);
  });
  for (const port of ports) {
    if (setPort(port.nodePort) !== undefined) continue;
    port.nodePort = allocatePort(pools, taken);
    taken.add(port.nodePort);
  }
  if (!needsHealthCheckNodePort(spec)) return;
  const healthCheck = setPort(spec.healthCheckNodePort);
  if (healthCheck === undefined) spec.healthCheckNodePort = allocatePort(pools, taken);
  else if (healthCheck !== setPort(oldSpec?.healthCheckNodePort)) {
    checkRequestedPort(service, "spec.healthCheckNodePort", healthCheck, pools, state.usedNodePorts);
  }
}

/**
 * Fills in what kube-apiserver's Service REST storage allocates before a Service is stored: the
 * cluster IP (and clusterIPs, ipFamilies, ipFamilyPolicy) of ClusterIP, NodePort and LoadBalancer
 * Services that are not headless, and node ports. On updates, allocated values the client left
 * out are carried over from the stored Service, and those a type change no longer needs released.
 * Throws 422 for a requested IP or port that is taken or out of range.
 */
export function allocateServiceFields(
  service: JsonObject,
  pools: AllocationPools,
  state: AllocationState,
): void {
  const spec = specOf(service);
  if (state.old) {
    const oldSpec = specOf(state.old);
    carryOverAllocatedValues(spec, oldSpec);
    normalizeClusterIps(spec, oldSpec);
    dropReleasedValues(spec, oldSpec);
  }
  assignClusterIp(service, spec, pools, state);
  assignNodePorts(service, spec, pools, state);
}
