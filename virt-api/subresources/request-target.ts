/**
 * The subresource paths of subresources.kubevirt.io/v1 (KubeVirt's): one VM or VMI and what is
 * asked of it, e.g. `/apis/subresources.kubevirt.io/v1/namespaces/ns/virtualmachines/vm/start`.
 */
import type { SubresourceName } from "../server/virt-api-metrics.js";

export const SUBRESOURCE_GROUP = "subresources.kubevirt.io";
export const SUBRESOURCE_VERSION = "v1";
export const GROUP_VERSION_PATH = `/apis/${SUBRESOURCE_GROUP}/${SUBRESOURCE_VERSION}`;

export type TargetResource = "virtualmachines" | "virtualmachineinstances";

/** The subresources of one VM or VMI (`expand-vm-spec` is on a namespace: namespace-request.ts). */
export type ObjectSubresourceName = Exclude<SubresourceName, "expand-vm-spec">;

export interface RequestTarget {
  readonly namespace: string;
  readonly resource: TargetResource;
  readonly name: string;
  readonly subresource: ObjectSubresourceName;
  /**
   * portforward only: the path's `{port}` and `{protocol}` as written (`.../portforward/22/tcp`),
   * empty when absent; port-forward/forwarded-port.ts judges them, with KubeVirt's 400s.
   */
  readonly forward?: { readonly port: string; readonly protocol: string };
}

/** What each subresource is: its resources, its HTTP method, and the verb RBAC is asked about. */
export const SUBRESOURCE_ROUTES: Readonly<
  Record<
    ObjectSubresourceName,
    {
      resources: readonly TargetResource[];
      method: "GET" | "PUT";
      verb: "get" | "update";
      stream: boolean;
    }
  >
> = {
  start: { resources: ["virtualmachines"], method: "PUT", verb: "update", stream: false },
  stop: { resources: ["virtualmachines"], method: "PUT", verb: "update", stream: false },
  restart: { resources: ["virtualmachines"], method: "PUT", verb: "update", stream: false },
  pause: { resources: ["virtualmachineinstances"], method: "PUT", verb: "update", stream: false },
  unpause: { resources: ["virtualmachineinstances"], method: "PUT", verb: "update", stream: false },
  guestosinfo: { resources: ["virtualmachineinstances"], method: "GET", verb: "get", stream: false },
  userlist: { resources: ["virtualmachineinstances"], method: "GET", verb: "get", stream: false },
  filesystemlist: { resources: ["virtualmachineinstances"], method: "GET", verb: "get", stream: false },
  console: { resources: ["virtualmachineinstances"], method: "GET", verb: "get", stream: true },
  vnc: { resources: ["virtualmachineinstances"], method: "GET", verb: "get", stream: true },
  // Both: a VM's request is kept in the VM (and reaches its VMI), a VMI's changes that VMI only.
  addvolume: {
    resources: ["virtualmachineinstances", "virtualmachines"],
    method: "PUT",
    verb: "update",
    stream: false,
  },
  removevolume: {
    resources: ["virtualmachineinstances", "virtualmachines"],
    method: "PUT",
    verb: "update",
    stream: false,
  },
  // virtctl expand --vm: the stored VM with its instancetype and preference applied (expand-spec.ts).
  "expand-spec": { resources: ["virtualmachines"], method: "GET", verb: "get", stream: false },
  // KubeVirt serves port-forward on both: a VM's goes to its VMI.
  portforward: {
    resources: ["virtualmachineinstances", "virtualmachines"],
    method: "GET",
    verb: "get",
    stream: true,
  },
};

// The port and protocol of portforward are path segments (`.../portforward/{port}[/{protocol}]`).
const PATH = new RegExp(
  `^${GROUP_VERSION_PATH}/namespaces/([^/]+)/(virtualmachines|virtualmachineinstances)/([^/]+)/([a-z-]+)(?:/([^/]*)(?:/([^/]*))?)?/?$`,
);

/** The target of a URL, or undefined when it names no subresource we serve. */
export function requestTargetOf(url: string | undefined): RequestTarget | undefined {
  const path = new URL(url ?? "/", "https://virt-api").pathname;
  const match = PATH.exec(path);
  if (!match) return undefined;
  const [, namespace = "", resource = "", name = "", subresource = "", port, protocol] = match;
  const route = Object.hasOwn(SUBRESOURCE_ROUTES, subresource)
    ? SUBRESOURCE_ROUTES[subresource as ObjectSubresourceName]
    : undefined;
  if (!route?.resources.includes(resource as TargetResource)) return undefined;
  const forwarding = subresource === "portforward";
  if (!forwarding && (port || protocol)) return undefined;
  try {
    return {
      namespace: decodeURIComponent(namespace),
      resource: resource as TargetResource,
      name: decodeURIComponent(name),
      subresource: subresource as ObjectSubresourceName,
      ...(forwarding
        ? { forward: { port: decodeURIComponent(port ?? ""), protocol: decodeURIComponent(protocol ?? "") } }
        : {}),
    };
  } catch {
    return undefined;
  }
}

/** The handler's path for the same VMI subresource: `/v1/namespaces/NS/virtualmachineinstances/NAME/console`. */
export function handlerPathOf(target: RequestTarget): string {
  return `/v1/namespaces/${encodeURIComponent(target.namespace)}/virtualmachineinstances/${encodeURIComponent(target.name)}/${target.subresource}`;
}
