import type { IncomingMessage } from "node:http";
import { ApiError } from "../api-error.js";
import type { Authenticator, UserInfo } from "../auth/authenticator.js";
import { requestAttributes } from "./attributes.js";
import type { Authorizer } from "./authorizer.js";
import { forbidden } from "./forbidden.js";
import { ANONYMOUS_USER, impersonatedUser, UNAUTHENTICATED_GROUP } from "./impersonation.js";
import type { RequestIdentities } from "./request-identities.js";

/**
 * Paths served to requests without credentials, as the anonymous user (whom the bootstrap
 * policy's system:public-info-viewer lets read them). Elsewhere a request without valid
 * credentials is a 401, as with kube-apiserver's `--anonymous-auth=false`.
 */
const ANONYMOUS_PATHS = new Set(["/version", "/version/", "/healthz", "/livez", "/readyz"]);

const anonymous: UserInfo = { username: ANONYMOUS_USER, uid: "", groups: [UNAUTHENTICATED_GROUP] };

export interface RequestAuthorizationDeps {
  authenticator: Authenticator;
  authorizer: Authorizer;
  identities: RequestIdentities;
}

/**
 * What kube-apiserver's filter chain does before a handler runs: authentication (401 without
 * valid credentials), impersonation (`Impersonate-*` headers, each checked), and authorization
 * of the request's attributes (403 with upstream's message). Records the acting user for the
 * handlers and returns it.
 */
export function authorizeRequest(deps: RequestAuthorizationDeps, request: IncomingMessage): UserInfo {
  const url = request.url ?? "/";
  const method = request.method ?? "GET";
  const authenticated = deps.authenticator.authenticate(request.headers.authorization);
  const path = url.split("?", 1)[0] ?? "";
  const requestor = authenticated ?? (ANONYMOUS_PATHS.has(path) ? anonymous : undefined);
  if (!requestor) throw new ApiError(401, "Unauthorized", "Unauthorized");
  // headersDistinct is built on first use: most requests impersonate nobody and skip it.
  const impersonates = Object.keys(request.headers).some((name) => name.startsWith("impersonate-"));
  const user = impersonates
    ? impersonatedUser(requestor, request.headersDistinct, deps.authorizer, url)
    : requestor;
  const attributes = requestAttributes(method, url, user);
  const { decision, reason } = deps.authorizer.authorize(attributes);
  if (decision !== "Allow") throw forbidden(attributes, reason);
  deps.identities.set(request, user);
  return user;
}
