import type { Frozen } from "../../../runtime/index.js";
import type { EndpointSlice, Pod, Service } from "../kinds.js";
import {
  type AddressFamily,
  comparePorts,
  endpointHostname,
  isHeadless,
  podHasEndpoint,
  podIpOf,
  podPorts,
  podReference,
  podServes,
  portsKey,
  type ResolvedPort,
  serviceFamilies,
} from "./service-endpoints.js";

export const serviceNameLabel = "kubernetes.io/service-name";
export const managedByLabel = "endpointslice.kubernetes.io/managed-by";
export const managedByValue = "endpointslice-controller.k8s.io";
const headlessLabel = "service.kubernetes.io/headless";
/** kube's default --max-endpoints-per-slice. */
export const maxEndpointsPerSlice = 100;

type SliceEndpoint = EndpointSlice["endpoints"][number];
type SlicePort = NonNullable<EndpointSlice["ports"]>[number];

/** What one EndpointSlice should hold. */
export interface SliceContent {
  addressType: AddressFamily;
  ports: SlicePort[];
  endpoints: SliceEndpoint[];
}

/** A wanted slice and the group (address type and ports) it belongs to. */
export interface DesiredSlice {
  group: string;
  content: SliceContent;
}

/**
 * The EndpointSlices a Service should have: per address family and set of resolved ports, its
 * selected pods' endpoints (terminating ones included, marked so), in slices of at most
 * maxEndpointsPerSlice. A Service with no endpoints still gets one empty slice, as kube's
 * placeholder.
 */
export function desiredSlices(service: Frozen<Service>, pods: readonly Frozen<Pod>[]): DesiredSlice[] {
  const groups = new Map<string, SliceContent>();
  for (const family of serviceFamilies(service)) {
    for (const pod of pods) {
      if (!podHasEndpoint(pod, true)) continue;
      const ip = podIpOf(pod, family);
      if (!ip) continue;
      const ports = podPorts(service, pod).sort(comparePorts);
      const key = sliceGroupKey(family, ports);
      let group = groups.get(key);
      if (!group) {
        group = { addressType: family, ports: ports.map(slicePort), endpoints: [] };
        groups.set(key, group);
      }
      group.endpoints.push(sliceEndpoint(service, pod, ip));
    }
  }
  const slices: DesiredSlice[] = [];
  for (const [key, group] of [...groups.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = group.endpoints.sort((a, b) => (a.addresses[0] ?? "").localeCompare(b.addresses[0] ?? ""));
    for (let i = 0; i < sorted.length; i += maxEndpointsPerSlice)
      slices.push({
        group: key,
        content: { ...group, endpoints: sorted.slice(i, i + maxEndpointsPerSlice) },
      });
  }
  if (slices.length === 0) {
    const addressType = serviceFamilies(service)[0] ?? "IPv4";
    slices.push({
      group: sliceGroupKey(addressType, []),
      content: { addressType, ports: [], endpoints: [] },
    });
  }
  return slices;
}

/** Which slices are interchangeable: same address type, same ports. */
export function sliceGroupKey(addressType: string, ports: readonly ResolvedPort[]): string {
  return `${addressType}|${portsKey(ports)}`;
}

/** The group key of a stored slice. */
export function groupKeyOf(slice: Frozen<EndpointSlice>): string {
  const ports = (slice.ports ?? []).map(
    (port): ResolvedPort => ({
      ...(port.name ? { name: port.name } : {}),
      port: port.port ?? 0,
      protocol: (port.protocol as ResolvedPort["protocol"] | undefined) ?? "TCP",
      ...(port.appProtocol ? { appProtocol: port.appProtocol } : {}),
    }),
  );
  return sliceGroupKey(slice.addressType, ports);
}

/** The labels of a Service's slices: the Service's own, plus the ones that tie the slice to it. */
export function sliceLabels(service: Frozen<Service>): Record<string, string> {
  const labels: Record<string, string> = { ...(service.metadata?.labels ?? {}) };
  delete labels[headlessLabel];
  if (isHeadless(service)) labels[headlessLabel] = "";
  labels[serviceNameLabel] = service.metadata?.name ?? "";
  labels[managedByLabel] = managedByValue;
  return labels;
}

function slicePort(port: ResolvedPort): SlicePort {
  return {
    name: port.name ?? "",
    port: port.port,
    protocol: port.protocol,
    ...(port.appProtocol ? { appProtocol: port.appProtocol } : {}),
  };
}

/**
 * An endpoint as kube's podToEndpoint writes it: serving when ready (or published regardless),
 * ready only when serving and not terminating.
 */
function sliceEndpoint(service: Frozen<Service>, pod: Frozen<Pod>, ip: string): SliceEndpoint {
  const serving = podServes(service, pod);
  const terminating = pod.metadata?.deletionTimestamp !== undefined;
  const ready = service.spec?.publishNotReadyAddresses === true || (serving && !terminating);
  const hostname = endpointHostname(service, pod);
  return {
    addresses: [ip],
    conditions: { ready, serving, terminating },
    ...(hostname ? { hostname } : {}),
    ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
    targetRef: podReference(pod),
  };
}
