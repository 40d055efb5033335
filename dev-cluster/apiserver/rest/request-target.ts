import { ApiError } from "../api-error.js";
import type { RequestTarget } from "../objects/request-target.js";
import type { ResourceRegistry } from "../registry/resource-registry.js";
import type { ResourceType } from "../resource-type.js";

/**
 * Resolves `/api/v1/...` and `/apis/<group>/<version>/...` paths. `segments` are the path
 * segments after the group-version prefix.
 */
export function resolveTarget(
  registry: ResourceRegistry,
  group: string,
  version: string,
  segments: string[],
): RequestTarget {
  const lookup = (plural: string): ResourceType => {
    const type = registry.find(group, version, plural);
    if (!type)
      throw new ApiError(404, "NotFound", "the server could not find the requested resource", {
        group,
        kind: plural,
      });
    return type;
  };
  const [first, second, third, fourth, fifth, ...rest] = segments;
  if (first === undefined || rest.length > 0) throw notFoundPath();
  // /namespaces/<ns>/<plural>[/<name>[/<sub>]]; but /namespaces/<name>[/status|/finalize] is the namespace itself.
  if (
    first === "namespaces" &&
    second !== undefined &&
    third !== undefined &&
    !(group === "" && isNamespaceSubresource(third, fourth))
  ) {
    const type = lookup(third);
    if (!type.namespaced) throw notFoundPath();
    return withName({ type, namespace: second, namespaced: true }, fourth, fifth);
  }
  if (fourth !== undefined) throw notFoundPath();
  const type = lookup(first);
  return withName({ type, namespace: "", namespaced: false }, second, third);
}

function isNamespaceSubresource(segment: string, after: string | undefined): boolean {
  return after === undefined && (segment === "status" || segment === "finalize");
}

function withName(
  target: RequestTarget,
  name: string | undefined,
  subresource: string | undefined,
): RequestTarget {
  if (name === undefined) return target;
  if (subresource === undefined) return { ...target, name };
  const served =
    subresource === "status"
      ? target.type.statusSubresource
      : subresource === "scale"
        ? target.type.scaleSubresource !== undefined
        : target.type.otherSubresources.includes(subresource) ||
          (target.type.plural === "namespaces" && subresource === "finalize");
  if (!served) throw notFoundPath();
  return { ...target, name, subresource };
}

function notFoundPath(): ApiError {
  return new ApiError(404, "NotFound", "the server could not find the requested resource");
}
