import type { Frozen } from "../../../runtime/index.js";
import type { Pod, Service } from "../kinds.js";
import { isPodReady, podIps } from "../pods/pod-state.js";

export type ServicePort = NonNullable<NonNullable<Service["spec"]>["ports"]>[number];

/** A service port resolved for one pod: what Endpoints and EndpointSlices list. */
export interface ResolvedPort {
  name?: string;
  port: number;
  protocol: "TCP" | "UDP" | "SCTP";
  appProtocol?: string;
}

/** Services whose endpoints this controller computes: with a selector, and not ExternalName. */
export function hasManagedEndpoints(service: Frozen<Service>): boolean {
  return service.spec?.type !== "ExternalName" && service.spec?.selector !== undefined;
}

/** The service's selector matches the pod (a selector is a plain label map; empty selects nothing). */
export function serviceSelects(service: Frozen<Service>, pod: Frozen<Pod>): boolean {
  const selector = Object.entries(service.spec?.selector ?? {});
  if (selector.length === 0 || pod.metadata?.namespace !== service.metadata?.namespace) return false;
  return selector.every(([key, value]) => pod.metadata?.labels?.[key] === value);
}

/**
 * The pod's port for a service port (podutil.FindPort): a number targetPort as is, a named one
 * from the containers' ports of that name and protocol; undefined when the pod has no such port.
 */
export function resolvePort(pod: Frozen<Pod>, servicePort: Frozen<ServicePort>): number | undefined {
  const target = servicePort.targetPort ?? servicePort.port;
  if (typeof target === "number") return target;
  if (/^\d+$/.test(target)) return Number(target);
  const protocol = servicePort.protocol ?? "TCP";
  const containers = [
    ...(pod.spec?.containers ?? []),
    ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === "Always"),
  ];
  for (const container of containers) {
    const port = container.ports?.find(
      (candidate) => candidate.name === target && (candidate.protocol ?? "TCP") === protocol,
    );
    if (port) return port.containerPort;
  }
  return undefined;
}

export function resolvedPort(servicePort: Frozen<ServicePort>, port: number): ResolvedPort {
  return {
    ...(servicePort.name !== undefined && servicePort.name !== "" ? { name: servicePort.name } : {}),
    port,
    protocol: servicePort.protocol ?? "TCP",
    ...(servicePort.appProtocol ? { appProtocol: servicePort.appProtocol } : {}),
  };
}

/** The service's ports as this pod serves them; ports the pod cannot resolve are left out. */
export function podPorts(service: Frozen<Service>, pod: Frozen<Pod>): ResolvedPort[] {
  const ports: ResolvedPort[] = [];
  for (const servicePort of service.spec?.ports ?? []) {
    const port = resolvePort(pod, servicePort);
    if (port !== undefined) ports.push(resolvedPort(servicePort, port));
  }
  return ports;
}

/**
 * Whether a pod appears among a service's endpoints at all (ShouldPodBeInEndpoints): it has an
 * IP, has not finished, and (unless terminating ones are wanted) is not being deleted.
 */
export function podHasEndpoint(pod: Frozen<Pod>, includeTerminating: boolean): boolean {
  const phase = pod.status?.phase;
  if (phase === "Succeeded" || phase === "Failed") return false;
  if (podIps(pod).length === 0) return false;
  return includeTerminating || !pod.metadata?.deletionTimestamp;
}

/** Serving: ready, or published regardless (publishNotReadyAddresses). */
export function podServes(service: Frozen<Service>, pod: Frozen<Pod>): boolean {
  return service.spec?.publishNotReadyAddresses === true || isPodReady(pod);
}

export type AddressFamily = "IPv4" | "IPv6";

export const familyOf = (ip: string): AddressFamily => (ip.includes(":") ? "IPv6" : "IPv4");

/** The service's address families (ipFamilies, else its cluster IP's, else IPv4). */
export function serviceFamilies(service: Frozen<Service>): AddressFamily[] {
  const declared = (service.spec?.ipFamilies ?? []).filter(
    (family): family is AddressFamily => family === "IPv4" || family === "IPv6",
  );
  if (declared.length > 0) return declared;
  const clusterIp = service.spec?.clusterIP;
  return [clusterIp && clusterIp !== "None" ? familyOf(clusterIp) : "IPv4"];
}

/** The pod's address of `family`, if it has one. */
export function podIpOf(pod: Frozen<Pod>, family: AddressFamily): string | undefined {
  return podIps(pod).find((ip) => familyOf(ip) === family);
}

/** A pod's hostname counts when it names itself under the service's subdomain (ShouldSetHostname). */
export function endpointHostname(service: Frozen<Service>, pod: Frozen<Pod>): string | undefined {
  const hostname = pod.spec?.hostname;
  return hostname && pod.spec?.subdomain === service.metadata?.name ? hostname : undefined;
}

export function podReference(pod: Frozen<Pod>): {
  kind: string;
  namespace: string;
  name: string;
  uid: string;
} {
  return {
    kind: "Pod",
    namespace: pod.metadata?.namespace ?? "",
    name: pod.metadata?.name ?? "",
    uid: pod.metadata?.uid ?? "",
  };
}

export const isHeadless = (service: Frozen<Service>): boolean => service.spec?.clusterIP === "None";

/** Canonical key of a port list (for grouping pods that serve the same ports). */
export function portsKey(ports: readonly ResolvedPort[]): string {
  return JSON.stringify(
    [...ports]
      .sort(comparePorts)
      .map((port) => [port.name ?? "", port.port, port.protocol, port.appProtocol ?? ""]),
  );
}

export function comparePorts(a: ResolvedPort, b: ResolvedPort): number {
  return (
    (a.name ?? "").localeCompare(b.name ?? "") || a.port - b.port || a.protocol.localeCompare(b.protocol)
  );
}
