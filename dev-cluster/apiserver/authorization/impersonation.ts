import { ApiError } from "../api-error.js";
import { authenticatedGroup, type UserInfo } from "../auth/authenticator.js";
import { dnsLabelProblems, dnsSubdomainProblems } from "../builtin/name-validation.js";
import type { AuthorizationAttributes } from "./attributes.js";
import type { Authorizer } from "./authorizer.js";
import { forbidden } from "./forbidden.js";
import { SERVICE_ACCOUNT_USERNAME_PREFIX } from "./rule-resolver.js";

export const ANONYMOUS_USER = "system:anonymous";
export const UNAUTHENTICATED_GROUP = "system:unauthenticated";
const AUTHENTICATION_GROUP = "authentication.k8s.io";

const USER_HEADER = "impersonate-user";
const GROUP_HEADER = "impersonate-group";
const UID_HEADER = "impersonate-uid";
const EXTRA_HEADER_PREFIX = "impersonate-extra-";

/** Request headers by lowercase name, every value of a repeated header kept (Node's `headersDistinct`). */
export type DistinctHeaders = Readonly<Record<string, readonly string[] | undefined>>;

/** One thing a request asks to act as, and what the real user must be allowed to do for it. */
interface ImpersonationRequest {
  kind: "ServiceAccount" | "User" | "Group" | "UserExtra" | "UID";
  /** The `impersonate` attributes to check, without the user. */
  check: Omit<AuthorizationAttributes, "user">;
  value: string;
  namespace?: string;
  extraKey?: string;
}

/** The attributes of `impersonate` on the given resource fields. */
function impersonate(
  fields: Partial<Omit<AuthorizationAttributes, "user">>,
): Omit<AuthorizationAttributes, "user"> {
  return {
    verb: "impersonate",
    resourceRequest: true,
    path: "",
    apiGroup: "",
    apiVersion: "",
    namespace: "",
    resource: "",
    subresource: "",
    name: "",
    ...fields,
  };
}

/** serviceaccount.SplitUsername: `system:serviceaccount:<namespace>:<name>` with valid names. */
export function splitServiceAccountUsername(
  username: string,
): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_USERNAME_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_USERNAME_PREFIX.length).split(":");
  const [namespace = "", name = ""] = parts;
  if (parts.length !== 2 || dnsLabelProblems(namespace).length > 0) return undefined;
  if (dnsSubdomainProblems(name).length > 0) return undefined;
  return { namespace, name };
}

/** Extra keys travel percent-encoded in header names (`Impersonate-Extra-example.com%2Fkey`). */
function extraKeyOf(headerName: string): string {
  const key = headerName.slice(EXTRA_HEADER_PREFIX.length).toLowerCase();
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

function first(headers: DistinctHeaders, name: string): string {
  return headers[name]?.[0] ?? "";
}

function impersonationRequests(headers: DistinctHeaders, requestUri: string): ImpersonationRequest[] {
  const requests: ImpersonationRequest[] = [];
  const requestedUser = first(headers, USER_HEADER);
  if (requestedUser !== "") {
    const account = splitServiceAccountUsername(requestedUser);
    if (account) {
      requests.push({
        kind: "ServiceAccount",
        value: account.name,
        namespace: account.namespace,
        check: impersonate({
          resource: "serviceaccounts",
          namespace: account.namespace,
          name: account.name,
        }),
      });
    } else {
      requests.push({
        kind: "User",
        value: requestedUser,
        check: impersonate({ resource: "users", name: requestedUser }),
      });
    }
  }
  for (const group of headers[GROUP_HEADER] ?? []) {
    requests.push({ kind: "Group", value: group, check: impersonate({ resource: "groups", name: group }) });
  }
  for (const [header, values] of Object.entries(headers)) {
    if (!header.startsWith(EXTRA_HEADER_PREFIX)) continue;
    const extraKey = extraKeyOf(header);
    for (const value of values ?? []) {
      requests.push({
        kind: "UserExtra",
        value,
        extraKey,
        check: impersonate({
          apiGroup: AUTHENTICATION_GROUP,
          resource: "userextras",
          subresource: extraKey,
          name: value,
        }),
      });
    }
  }
  const uid = first(headers, UID_HEADER);
  if (uid !== "") {
    requests.push({
      kind: "UID",
      value: uid,
      check: impersonate({ apiGroup: AUTHENTICATION_GROUP, resource: "uids", name: uid }),
    });
  }
  if (requestedUser === "" && requests.length > 0) {
    // kube-apiserver answers this with a 500 as well (responsewriters.InternalError).
    const asked = requests.map((request) => `${request.kind} ${JSON.stringify(request.value)}`).join(", ");
    throw new ApiError(
      500,
      "InternalError",
      `Internal Server Error: ${JSON.stringify(requestUri)}: requested [${asked}] without impersonating a user`,
    );
  }
  return requests;
}

/** Adds system:authenticated (or system:unauthenticated for the anonymous user) unless already decided. */
function withAuthenticationGroup(username: string, groups: string[]): string[] {
  if (username === ANONYMOUS_USER) {
    return groups.includes(UNAUTHENTICATED_GROUP) ? groups : [...groups, UNAUTHENTICATED_GROUP];
  }
  if (groups.includes(authenticatedGroup) || groups.includes(UNAUTHENTICATED_GROUP)) return groups;
  return [...groups, authenticatedGroup];
}

/**
 * The user a request acts as, as kube-apiserver's impersonation filter decides it: without
 * `Impersonate-*` headers the authenticated user; otherwise the requested user, groups, uid and
 * extras, each of which the real user must be allowed to `impersonate` (a 403 names the first
 * that is not). A service account gets its groups unless groups are given.
 */
export function impersonatedUser(
  requestor: UserInfo,
  headers: DistinctHeaders,
  authorizer: Authorizer,
  requestUri: string,
): UserInfo {
  const requests = impersonationRequests(headers, requestUri);
  if (requests.length === 0) return requestor;
  const groupsSpecified = (headers[GROUP_HEADER]?.length ?? 0) > 0;
  let username = "";
  let uid = "";
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const request of requests) {
    const attributes: AuthorizationAttributes = { user: requestor, ...request.check };
    const { decision, reason } = authorizer.authorize(attributes);
    if (decision !== "Allow") throw forbidden(attributes, reason);
    switch (request.kind) {
      case "ServiceAccount":
        username = `${SERVICE_ACCOUNT_USERNAME_PREFIX}${request.namespace}:${request.value}`;
        if (!groupsSpecified)
          groups = ["system:serviceaccounts", `system:serviceaccounts:${request.namespace}`];
        break;
      case "User":
        username = request.value;
        break;
      case "Group":
        groups.push(request.value);
        break;
      case "UserExtra": {
        const key = request.extraKey ?? "";
        extra[key] = [...(extra[key] ?? []), request.value];
        break;
      }
      case "UID":
        uid = request.value;
        break;
    }
  }
  const user: UserInfo = { username, uid, groups: withAuthenticationGroup(username, groups) };
  if (Object.keys(extra).length > 0) user.extra = extra;
  return user;
}
