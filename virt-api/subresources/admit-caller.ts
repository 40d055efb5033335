/**
 * The gate of every subresource request: who calls (request-header authentication, 401
 * otherwise) and whether RBAC lets them (SubjectAccessReview, 403 otherwise).
 */
import type { TLSSocket } from "node:tls";
import type { Caller } from "../auth/caller.js";
import { authenticateCaller, type DistinctHeaders } from "../auth/request-header-authenticator.js";
import { requireAuthorized } from "../auth/subject-access-review.js";
import { type RequestTarget, SUBRESOURCE_GROUP, SUBRESOURCE_ROUTES } from "./request-target.js";
import type { SubresourceDependencies } from "./subresource-dependencies.js";

export async function admitCaller(
  deps: Pick<SubresourceDependencies, "requestHeader" | "authorizer">,
  socket: TLSSocket,
  headers: DistinctHeaders,
  target: RequestTarget,
): Promise<Caller> {
  const caller = authenticateCaller(deps.requestHeader.current(), socket, headers);
  await requireAuthorized(deps.authorizer, caller, {
    verb: SUBRESOURCE_ROUTES[target.subresource].verb,
    group: SUBRESOURCE_GROUP,
    resource: target.resource,
    subresource: target.subresource,
    namespace: target.namespace,
    name: target.name,
  });
  return caller;
}

/** The same gate for a request on a namespace rather than an object (`expand-vm-spec`). */
export async function admitNamespaceCaller(
  deps: Pick<SubresourceDependencies, "requestHeader" | "authorizer">,
  socket: TLSSocket,
  headers: DistinctHeaders,
  target: { readonly namespace: string; readonly resource: string; readonly verb: "get" | "update" },
): Promise<Caller> {
  const caller = authenticateCaller(deps.requestHeader.current(), socket, headers);
  await requireAuthorized(deps.authorizer, caller, {
    verb: target.verb,
    group: SUBRESOURCE_GROUP,
    resource: target.resource,
    subresource: "",
    namespace: target.namespace,
    name: "",
  });
  return caller;
}
