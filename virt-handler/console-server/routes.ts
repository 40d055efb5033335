// The handler's subresource paths, as KubeVirt's virt-handler serves them to virt-api:
// /v1/namespaces/NS/virtualmachineinstances/NAME/{console,vnc,pause,unpause,guestosinfo,userlist,filesystemlist}.
import { HttpError } from "./http-status.js";

export type Subresource =
  | "console"
  | "vnc"
  | "pause"
  | "unpause"
  | "guestosinfo"
  | "userlist"
  | "filesystemlist";

export interface Route {
  readonly namespace: string;
  readonly name: string;
  readonly subresource: Subresource;
}

const PATH =
  /^\/v1\/namespaces\/([^/]+)\/virtualmachineinstances\/([^/]+)\/(console|vnc|pause|unpause|guestosinfo|userlist|filesystemlist)\/?$/;

/** Which method and transport each subresource takes. */
export const SUBRESOURCE_METHODS: Readonly<Record<Subresource, { method: string; websocket: boolean }>> = {
  console: { method: "GET", websocket: true },
  vnc: { method: "GET", websocket: true },
  pause: { method: "PUT", websocket: false },
  unpause: { method: "PUT", websocket: false },
  guestosinfo: { method: "GET", websocket: false },
  userlist: { method: "GET", websocket: false },
  filesystemlist: { method: "GET", websocket: false },
};

/** The route of a request URL; throws a 404 HttpError for any other path. */
export function routeOf(url: string | undefined): Route {
  const path = new URL(url ?? "/", "https://virt-handler").pathname;
  const match = PATH.exec(path);
  if (!match) throw new HttpError(404, "NotFound", `no such path: ${path}`);
  const [, namespace, name, subresource] = match as unknown as [string, string, string, Subresource];
  return { namespace: decodeURIComponent(namespace), name: decodeURIComponent(name), subresource };
}

/** Checks the method and whether the request must (or must not) be a WebSocket upgrade. */
export function checkMethod(route: Route, method: string | undefined, upgrade: boolean): void {
  const expected = SUBRESOURCE_METHODS[route.subresource];
  if (method !== expected.method) {
    throw new HttpError(
      405,
      "MethodNotAllowed",
      `${route.subresource} takes ${expected.method}, not ${method}`,
    );
  }
  if (expected.websocket && !upgrade) {
    throw new HttpError(400, "BadRequest", `${route.subresource} is a WebSocket: send an upgrade request`);
  }
  if (!expected.websocket && upgrade) {
    throw new HttpError(400, "BadRequest", `${route.subresource} is not a WebSocket`);
  }
}
