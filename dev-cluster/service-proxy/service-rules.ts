import type { Frozen } from "../../runtime/index.js";
import type { Service as StoredService, EndpointSlice as StoredSlice } from "../controllers/kinds.js";
import { cidrContains, type Ipv4Cidr, parseIpv4 } from "../node-agent/network/ipv4.js";

type Service = Frozen<StoredService>;
type EndpointSlice = Frozen<StoredSlice>;

export type ServiceProtocol = "tcp" | "udp";

export interface ServiceEndpoint {
  ip: string;
  port: number;
}

/** One port of one Service, as the dataplane routes it. */
export interface ServicePortRule {
  /** `namespace/name:port-name`, for comments and messages. */
  id: string;
  protocol: ServiceProtocol;
  /** Absent for headless Services (which have no virtual address). */
  clusterIP?: string;
  port: number;
  nodePort?: number;
  /** Ready, not terminating endpoints, sorted; empty means "reject". */
  endpoints: ServiceEndpoint[];
}

const SERVICE_NAME_LABEL = "kubernetes.io/service-name";

/**
 * What kube-proxy programs from the API: every port of every Service with a virtual address
 * (ClusterIP, NodePort, LoadBalancer; not headless, not ExternalName) and the endpoints of its
 * EndpointSlices that are ready and not terminating (kube-proxy's rule: serving-but-terminating
 * endpoints are used only when none is ready, which a dev cluster need not model). SCTP and
 * IPv6 are not routed. The result is sorted, so equal inputs render equal rulesets.
 *
 * Everything here comes from objects namespace users write (an EndpointSlice can name any
 * address) and goes into an nft script run on the node: addresses must be IPv4, ports whole
 * numbers of 1-65535, and endpoints inside `endpointRange` (the node's pods and the node itself),
 * so that no translation ever sends traffic off the machine. Anything else is left out.
 */
export function serviceRules(
  services: readonly Service[],
  slices: readonly EndpointSlice[],
  endpointRange: Ipv4Cidr,
): ServicePortRule[] {
  const slicesByService = new Map<string, EndpointSlice[]>();
  for (const slice of slices) {
    const serviceName = slice.metadata?.labels?.[SERVICE_NAME_LABEL];
    if (!serviceName || slice.addressType !== "IPv4") continue;
    const key = `${slice.metadata?.namespace}/${serviceName}`;
    slicesByService.set(key, [...(slicesByService.get(key) ?? []), slice]);
  }
  const rules: ServicePortRule[] = [];
  for (const service of services) {
    const spec = service.spec;
    if (!spec || spec.type === "ExternalName") continue;
    const clusterIP = spec.clusterIP && isIpv4(spec.clusterIP) ? spec.clusterIP : undefined;
    const key = `${service.metadata?.namespace}/${service.metadata?.name}`;
    for (const port of spec.ports ?? []) {
      const protocol = protocolOf(port.protocol);
      if (!protocol || !isPort(port.port) || (port.nodePort !== undefined && !isPort(port.nodePort)))
        continue;
      if (!clusterIP && port.nodePort === undefined) continue;
      const portName = port.name ?? "";
      rules.push({
        // Only in comments; kept to the characters of Kubernetes names.
        id: `${key}:${portName || port.port}`.replace(/[^A-Za-z0-9./:_-]/g, "_"),
        protocol,
        ...(clusterIP ? { clusterIP } : {}),
        port: port.port,
        ...(port.nodePort !== undefined ? { nodePort: port.nodePort } : {}),
        endpoints: readyEndpoints(slicesByService.get(key) ?? [], portName, protocol, endpointRange),
      });
    }
  }
  return rules.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function protocolOf(protocol: string | undefined): ServiceProtocol | undefined {
  if (protocol === undefined || protocol === "TCP") return "tcp";
  if (protocol === "UDP") return "udp";
  return undefined;
}

function readyEndpoints(
  slices: readonly EndpointSlice[],
  portName: string,
  protocol: ServiceProtocol,
  endpointRange: Ipv4Cidr,
): ServiceEndpoint[] {
  const found = new Map<string, ServiceEndpoint>();
  for (const slice of slices) {
    const slicePort = (slice.ports ?? []).find(
      (port) => (port.name ?? "") === portName && protocolOf(port.protocol) === protocol,
    );
    if (slicePort?.port === undefined || !isPort(slicePort.port)) continue;
    for (const endpoint of slice.endpoints ?? []) {
      // A missing `ready` means ready (the EndpointSlice API's rule).
      if (endpoint.conditions?.ready === false || endpoint.conditions?.terminating === true) continue;
      for (const ip of endpoint.addresses ?? []) {
        if (!isIpv4(ip) || !cidrContains(endpointRange, ip)) continue;
        found.set(`${ip}:${slicePort.port}`, { ip, port: slicePort.port });
      }
    }
  }
  return [...found.values()].sort((a, b) => compareEndpoints(a, b));
}

function isIpv4(text: string): boolean {
  try {
    parseIpv4(text);
    return true;
  } catch {
    return false;
  }
}

function isPort(value: number): boolean {
  return Number.isInteger(value) && value >= 1 && value <= 65535;
}

function compareEndpoints(a: ServiceEndpoint, b: ServiceEndpoint): number {
  const key = (endpoint: ServiceEndpoint) =>
    `${endpoint.ip
      .split(".")
      .map((octet) => octet.padStart(3, "0"))
      .join(".")}:${String(endpoint.port).padStart(5, "0")}`;
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
}
