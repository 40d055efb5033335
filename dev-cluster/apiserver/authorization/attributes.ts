import type { UserInfo } from "../auth/authenticator.js";
import { pathSegmentProblems } from "../builtin/name-validation.js";
import { type FieldRequirement, parseFieldSelector } from "../selectors/field-selector.js";

/**
 * What an authorizer decides on (k8s.io/apiserver's authorizer.Attributes): who asks, and either
 * a verb on a resource (group, resource, subresource, namespace, name) or a lowercase HTTP verb
 * on a non-resource path.
 */
export interface AuthorizationAttributes {
  user: UserInfo;
  verb: string;
  resourceRequest: boolean;
  /** The URL path, for non-resource requests. */
  path: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
}

const API_PREFIXES = new Set(["api", "apis"]);
const GROUPLESS_API_PREFIXES = new Set(["api"]);
/** Path segments that are verbs (the deprecated `/api/v1/watch/...` form) rather than resources. */
const SPECIAL_VERBS = new Set(["proxy", "watch"]);
const SPECIAL_VERBS_WITHOUT_SUBRESOURCES = new Set(["proxy"]);
/** Subresources of a namespace, which must not be read as `/namespaces/<ns>/<resource>`. */
const NAMESPACE_SUBRESOURCES = new Set(["status", "finalize"]);

const VERB_OF_METHOD: Readonly<Record<string, string>> = {
  POST: "create",
  GET: "get",
  HEAD: "get",
  PUT: "update",
  PATCH: "patch",
  DELETE: "delete",
};

function decodePath(rawPath: string): string {
  try {
    return decodeURIComponent(rawPath);
  } catch {
    // A malformed escape is not ours to reject here; the route answers it.
    return rawPath;
  }
}

function splitPath(path: string): string[] {
  const trimmed = path.replace(/^\/+|\/+$/g, "");
  return trimmed === "" ? [] : trimmed.split("/");
}

/** apimachinery's Convert_Slice_string_To_bool: only "0", "f" and "false" (any case) are false. */
function isTrue(value: string): boolean {
  const lower = value.toLowerCase();
  return lower !== "0" && lower !== "f" && lower !== "false";
}

/** The name a `fieldSelector=metadata.name=<name>` pins a list or watch to, when it is a valid name. */
function selectedName(query: URLSearchParams): string | undefined {
  const text = query.get("fieldSelector");
  if (!text) return undefined;
  let requirements: FieldRequirement[];
  try {
    requirements = parseFieldSelector(text);
  } catch {
    // kube-apiserver falls back to an unnamed list when the selector does not parse.
    return undefined;
  }
  // fields.Selector.RequiresExactMatch: the first `metadata.name=` (or `==`) term.
  const name = requirements.find((r) => r.field === "metadata.name" && r.operator === "=")?.value;
  return name !== undefined && pathSegmentProblems(name).length === 0 ? name : undefined;
}

/** Attributes with every field empty but those given: the checks the server makes of its own accord. */
export function resourceAttributes(
  user: UserInfo,
  verb: string,
  fields: Partial<Omit<AuthorizationAttributes, "user" | "verb">>,
): AuthorizationAttributes {
  return {
    user,
    verb,
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

/**
 * The attributes of an HTTP request, as k8s.io/apiserver's RequestInfoFactory computes them:
 * `/api/<v>/...` and `/apis/<g>/<v>/...` are resource requests (verb from the method, `list` or
 * `watch` for a GET without a name, `deletecollection` for a DELETE without one); every other
 * path is a non-resource request whose verb is the lowercase method.
 */
export function requestAttributes(method: string, url: string, user: UserInfo): AuthorizationAttributes {
  const [rawPath = "", search = ""] = url.split("?", 2);
  const path = decodePath(rawPath);
  const attributes = resourceAttributes(user, method.toLowerCase(), { resourceRequest: false, path });
  let parts = splitPath(path);
  const prefix = parts[0] ?? "";
  if (parts.length < 3 || !API_PREFIXES.has(prefix)) return attributes;
  parts = parts.slice(1);
  if (!GROUPLESS_API_PREFIXES.has(prefix)) {
    if (parts.length < 3) return attributes;
    attributes.apiGroup = parts[0] ?? "";
    parts = parts.slice(1);
  }
  attributes.resourceRequest = true;
  attributes.apiVersion = parts[0] ?? "";
  parts = parts.slice(1);
  const first = parts[0] ?? "";
  if (SPECIAL_VERBS.has(first)) {
    // `/api/v1/watch` alone names nothing; upstream fails the request info, which denies it.
    if (parts.length < 2) return { ...attributes, verb: "" };
    attributes.verb = first;
    parts = parts.slice(1);
  } else {
    attributes.verb = VERB_OF_METHOD[method.toUpperCase()] ?? "";
  }
  if (parts[0] === "namespaces") {
    if (parts.length > 1) {
      attributes.namespace = parts[1] ?? "";
      if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2] ?? "")) parts = parts.slice(2);
    }
  }
  attributes.resource = parts[0] ?? "";
  attributes.name = parts[1] ?? "";
  if (parts.length >= 3 && !SPECIAL_VERBS_WITHOUT_SUBRESOURCES.has(attributes.verb)) {
    attributes.subresource = parts[2] ?? "";
  }
  if (attributes.name === "" && attributes.verb === "get") {
    const query = new URLSearchParams(search);
    const watch = query.get("watch");
    attributes.verb = watch !== null && isTrue(watch) ? "watch" : "list";
    attributes.name = selectedName(query) ?? "";
  }
  if (attributes.name === "" && attributes.verb === "delete") attributes.verb = "deletecollection";
  return attributes;
}
