import type { Frozen } from "../../../runtime/index.js";
import type { Endpoints, Pod, Service } from "../kinds.js";
import { isPodReady } from "../pods/pod-state.js";
import {
  comparePorts,
  endpointHostname,
  isHeadless,
  podHasEndpoint,
  podIpOf,
  podPorts,
  podReference,
  portsKey,
  type ResolvedPort,
  serviceFamilies,
} from "./service-endpoints.js";

export type EndpointSubset = NonNullable<Endpoints["subsets"]>[number];
type EndpointAddress = NonNullable<EndpointSubset["addresses"]>[number];

/**
 * A Service's Endpoints subsets (the endpoints controller's syncService, then RepackSubsets):
 * every selected pod with an IP, not finished and not terminating, as a ready address (Ready
 * condition True, or publishNotReadyAddresses) or a not-ready one, with the service's ports as
 * that pod resolves them; pods that resolve the same ports share a subset. Sorted, so that
 * equal inputs give equal objects and an unchanged Service causes no write.
 */
export function endpointSubsets(service: Frozen<Service>, pods: readonly Frozen<Pod>[]): EndpointSubset[] {
  const family = serviceFamilies(service)[0] ?? "IPv4";
  const publishNotReady = service.spec?.publishNotReadyAddresses === true;
  const groups = new Map<
    string,
    { ports: ResolvedPort[]; ready: EndpointAddress[]; notReady: EndpointAddress[] }
  >();
  const servicePorts = service.spec?.ports ?? [];
  for (const pod of pods) {
    if (!podHasEndpoint(pod, publishNotReady)) continue;
    const ip = podIpOf(pod, family);
    if (!ip) continue;
    let ports = podPorts(service, pod);
    // A pod that serves none of the ports is no endpoint, except of a headless Service without ports.
    if (ports.length === 0 && !(servicePorts.length === 0 && isHeadless(service))) continue;
    ports = ports.sort(comparePorts);
    const key = portsKey(ports);
    let group = groups.get(key);
    if (!group) {
      group = { ports, ready: [], notReady: [] };
      groups.set(key, group);
    }
    (publishNotReady || isPodReady(pod) ? group.ready : group.notReady).push(
      endpointAddress(service, pod, ip),
    );
  }
  return [...groups.values()]
    .map(({ ports, ready, notReady }) => {
      const subset: EndpointSubset = {};
      if (ready.length > 0) subset.addresses = ready.sort(compareAddresses);
      if (notReady.length > 0) subset.notReadyAddresses = notReady.sort(compareAddresses);
      if (ports.length > 0) subset.ports = ports.map((port) => ({ ...port }));
      return subset;
    })
    .sort((a, b) => compareIps(firstIp(a), firstIp(b)));
}

function endpointAddress(service: Frozen<Service>, pod: Frozen<Pod>, ip: string): EndpointAddress {
  const hostname = endpointHostname(service, pod);
  return {
    ip,
    ...(hostname ? { hostname } : {}),
    ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
    targetRef: podReference(pod),
  };
}

function compareAddresses(a: EndpointAddress, b: EndpointAddress): number {
  return compareIps(a.ip, b.ip) || (a.targetRef?.uid ?? "").localeCompare(b.targetRef?.uid ?? "");
}

/** IPv4 addresses numerically (10.0.0.9 before 10.0.0.10), anything else as text. */
function compareIps(a: string, b: string): number {
  const parts = (ip: string): number[] | undefined =>
    /^\d+\.\d+\.\d+\.\d+$/.test(ip) ? ip.split(".").map(Number) : undefined;
  const left = parts(a);
  const right = parts(b);
  if (!left || !right) return a.localeCompare(b);
  for (let i = 0; i < 4; i++) {
    const diff = (left[i] ?? 0) - (right[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

function firstIp(subset: EndpointSubset): string {
  return subset.addresses?.[0]?.ip ?? subset.notReadyAddresses?.[0]?.ip ?? "";
}
