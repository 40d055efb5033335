import { ApiError, type StatusDetails } from "../api-error.js";
import type { AuthorizationAttributes } from "./attributes.js";

/** responsewriters' sanitizer: the message may echo a path or name the client chose. */
function sanitize(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

const quote = (text: string): string => JSON.stringify(text);

/** k8s.io/apiserver's forbiddenMessage. */
export function forbiddenMessage(attributes: AuthorizationAttributes): string {
  const user = quote(attributes.user.username);
  if (!attributes.resourceRequest) {
    return `User ${user} cannot ${attributes.verb} path ${quote(attributes.path)}`;
  }
  const resource =
    attributes.subresource === "" ? attributes.resource : `${attributes.resource}/${attributes.subresource}`;
  const what = `User ${user} cannot ${attributes.verb} resource ${quote(resource)} in API group ${quote(attributes.apiGroup)}`;
  if (attributes.namespace !== "") return `${what} in the namespace ${quote(attributes.namespace)}`;
  return `${what} at the cluster scope`;
}

/**
 * The 403 kube-apiserver answers a request no authorizer allows: apierrors.NewForbidden of the
 * request's group and resource and name, e.g. `pods is forbidden: User "x" cannot list resource
 * "pods" in API group "" in the namespace "default"`, or `forbidden: User "x" cannot get path
 * "/metrics"` for a non-resource request. The authorizer's reason, when it has one, follows.
 */
export function forbidden(attributes: AuthorizationAttributes, reason: string): ApiError {
  const message = sanitize(forbiddenMessage(attributes));
  const why = reason === "" ? message : `${message}: ${reason}`;
  const { apiGroup: group, resource, name } = attributes;
  const qualified = group === "" ? resource : `${resource}.${group}`;
  let text: string;
  if (qualified === "") text = `forbidden: ${why}`;
  else if (name === "") text = `${qualified} is forbidden: ${why}`;
  else text = `${qualified} ${quote(name)} is forbidden: ${why}`;
  // Empty fields are left out, as the Go type's omitempty does.
  const details: StatusDetails = {};
  if (name !== "") details.name = name;
  if (group !== "") details.group = group;
  if (resource !== "") details.kind = resource;
  return new ApiError(403, "Forbidden", text, details);
}
