/**
 * The subresource paths of subresources.kubevirt.io/v1 (KubeVirt's): one VM or VMI and what is
 * asked of it, e.g. `/apis/subresources.kubevirt.io/v1/namespaces/ns/virtualmachines/vm/start`.
 */
import type { SubresourceName } from "../server/virt-api-metrics.js";

export const SUBRESOURCE_GROUP = "subresources.kubevirt.io";
export const SUBRESOURCE_VERSION = "v1";
export const GROUP_VERSION_PATH = `/apis/${SUBRESOURCE_GROUP}/${SUBRESOURCE_VERSION}`;

export type TargetResource = "virtualmachines" | "virtualmachineinstances";

export interface RequestTarget {
  readonly namespace: string;
  readonly resource: TargetResource;
  readonly name: string;
  readonly subresource: SubresourceName;
}

/** What each subresource is: its resource, its HTTP method, and the verb RBAC is asked about. */
export const SUBRESOURCE_ROUTES: Readonly<
  Record<
    SubresourceName,
    { resource: TargetResource; method: "GET" | "PUT"; verb: "get" | "update"; stream: boolean }
  >
> = {
  start: { resource: "virtualmachines", method: "PUT", verb: "update", stream: false },
  stop: { resource: "virtualmachines", method: "PUT", verb: "update", stream: false },
  restart: { resource: "virtualmachines", method: "PUT", verb: "update", stream: false },
  pause: { resource: "virtualmachineinstances", method: "PUT", verb: "update", stream: false },
  unpause: { resource: "virtualmachineinstances", method: "PUT", verb: "update", stream: false },
  guestosinfo: { resource: "virtualmachineinstances", method: "GET", verb: "get", stream: false },
  console: { resource: "virtualmachineinstances", method: "GET", verb: "get", stream: true },
  vnc: { resource: "virtualmachineinstances", method: "GET", verb: "get", stream: true },
};

const PATH = new RegExp(
  `^${GROUP_VERSION_PATH}/namespaces/([^/]+)/(virtualmachines|virtualmachineinstances)/([^/]+)/([a-z]+)/?$`,
);

/** The target of a URL, or undefined when it names no subresource we serve. */
export function requestTargetOf(url: string | undefined): RequestTarget | undefined {
  const path = new URL(url ?? "/", "https://virt-api").pathname;
  const match = PATH.exec(path);
  if (!match) return undefined;
  const [, namespace = "", resource = "", name = "", subresource = ""] = match;
  const route = SUBRESOURCE_ROUTES[subresource as SubresourceName];
  if (!route || route.resource !== resource) return undefined;
  try {
    return {
      namespace: decodeURIComponent(namespace),
      resource: route.resource,
      name: decodeURIComponent(name),
      subresource: subresource as SubresourceName,
    };
  } catch {
    return undefined;
  }
}

/** The handler's path for the same VMI subresource: `/v1/namespaces/NS/virtualmachineinstances/NAME/console`. */
export function handlerPathOf(target: RequestTarget): string {
  return `/v1/namespaces/${encodeURIComponent(target.namespace)}/virtualmachineinstances/${encodeURIComponent(target.name)}/${target.subresource}`;
}
