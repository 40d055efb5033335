import type { JsonObject } from "../json.js";
import type { ResourceType } from "../resource-type.js";
import { acceptsPlainJson, parseAcceptHeader } from "./accept-header.js";
import { type DiscoveryGroup, discoveryGroups, resourceVerbs } from "./api-groups.js";
import { subresourcesOf } from "./subresources.js";

/** The aggregated discovery versions served; v2beta1 is what pre-1.30 clients ask for. */
export type AggregatedDiscoveryVersion = "v2" | "v2beta1";

/** kubectl picks the body format from the response Content-Type, so it must be exactly this. */
export const aggregatedDiscoveryContentType =
  "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
export const aggregatedDiscoveryV2beta1ContentType =
  "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList";

export function aggregatedDiscoveryContentTypeFor(version: AggregatedDiscoveryVersion): string {
  return version === "v2" ? aggregatedDiscoveryContentType : aggregatedDiscoveryV2beta1ContentType;
}

/**
 * Decides from an Accept header whether a request to /api or /apis wants the aggregated
 * document. Returns undefined when the client prefers (or only accepts) the legacy
 * APIVersions / APIGroupList body.
 */
export function negotiateAggregatedDiscovery(
  accept: string | undefined,
): AggregatedDiscoveryVersion | undefined {
  for (const range of parseAcceptHeader(accept)) {
    const { g, v, as } = range.params;
    const aggregated = range.mediaType === "application/json" && g === "apidiscovery.k8s.io";
    if (aggregated && as === "APIGroupDiscoveryList" && (v === "v2" || v === "v2beta1")) return v;
    if (acceptsPlainJson(range)) return undefined;
  }
  return undefined;
}

function resourceDiscovery(type: ResourceType): JsonObject {
  const entry: JsonObject = {
    resource: type.plural,
    responseKind: { group: "", version: "", kind: type.kind },
    scope: type.namespaced ? "Namespaced" : "Cluster",
    singularResource: type.singular,
    verbs: [...(type.verbs ?? resourceVerbs)],
  };
  // Upstream omits empty lists; kubectl treats a missing list as empty.
  if (type.shortNames.length > 0) entry.shortNames = [...type.shortNames];
  if (type.categories.length > 0) entry.categories = [...type.categories];
  const subresources = subresourcesOf(type).map(
    (sub): JsonObject => ({ subresource: sub.name, responseKind: { ...sub.responseKind }, verbs: sub.verbs }),
  );
  if (subresources.length > 0) entry.subresources = subresources;
  return entry;
}

function groupDiscovery(group: DiscoveryGroup): JsonObject {
  return {
    // The legacy core group has no name; kubectl recognises it by that.
    metadata: group.group === "" ? {} : { name: group.group },
    versions: group.versions.map((version) => ({
      version: version.version,
      resources: version.types.map(resourceDiscovery),
      freshness: "Current",
    })),
  };
}

/**
 * The `APIGroupDiscoveryList` for `/api` (the core group only) or `/apis` (every other group):
 * everything kubectl needs for discovery in one request per root.
 */
export function aggregatedDiscovery(
  types: readonly ResourceType[],
  root: "api" | "apis",
  version: AggregatedDiscoveryVersion = "v2",
): JsonObject {
  const groups = discoveryGroups(types).filter((group) => (root === "api") === (group.group === ""));
  return {
    kind: "APIGroupDiscoveryList",
    apiVersion: `apidiscovery.k8s.io/${version}`,
    metadata: {},
    items: groups.map(groupDiscovery),
  };
}
