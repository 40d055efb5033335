import { groupVersionString } from "../discovery/api-groups.js";
import { compareKubeVersions } from "../discovery/version-priority.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import type { ResourceRegistry } from "../registry/resource-registry.js";
import type { AggregatedApiService, ApiServiceCatalog } from "./api-services.js";

/** Groups other servers serve, for the discovery documents of `/apis`. */
export interface ExternalDiscovery {
  /** The APIGroupList of `GET /apis` with the aggregated groups added. */
  extendGroupList(list: JsonObject): JsonObject;
  /** The APIGroupDiscoveryList (aggregated discovery) of `GET /apis` with the aggregated groups added. */
  extendGroupDiscoveryList(list: JsonObject): JsonObject;
}

interface CachedResources {
  /** The backend's APIResourceList entries. */
  resources: JsonObject[];
  /** The last fetch failed: these are from an earlier one. */
  stale: boolean;
}

interface AggregatedGroup {
  group: string;
  /** Highest priority first. */
  apiServices: AggregatedApiService[];
}

function byPriority(a: AggregatedApiService, b: AggregatedApiService): number {
  return b.versionPriority - a.versionPriority || compareKubeVersions(a.version, b.version);
}

function stringsOf(value: JsonValue | undefined): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;
}

function responseKind(resource: JsonObject): JsonObject {
  return {
    group: typeof resource.group === "string" ? resource.group : "",
    version: typeof resource.version === "string" ? resource.version : "",
    kind: typeof resource.kind === "string" ? resource.kind : "",
  };
}

/**
 * endpoints.ConvertGroupVersionIntoToDiscovery: an APIResourceList's entries as aggregated
 * discovery resources, subresources (`parent/sub`) nested under their parent; a subresource
 * whose parent is not listed (KubeVirt's `virtualmachineinstances/console`) gets a parent entry
 * of its own with no verbs.
 */
export function resourceDiscoveries(list: readonly JsonObject[]): JsonObject[] {
  const parents = new Map<string, JsonObject>();
  const scopeOf = (resource: JsonObject) => (resource.namespaced === true ? "Namespaced" : "Cluster");
  for (const resource of list) {
    const name = typeof resource.name === "string" ? resource.name : "";
    if (name === "" || name.includes("/")) continue;
    const entry: JsonObject = {
      resource: name,
      responseKind: responseKind(resource),
      scope: scopeOf(resource),
      singularResource: typeof resource.singularName === "string" ? resource.singularName : "",
      verbs: stringsOf(resource.verbs) ?? [],
    };
    const shortNames = stringsOf(resource.shortNames);
    if (shortNames?.length) entry.shortNames = shortNames;
    const categories = stringsOf(resource.categories);
    if (categories?.length) entry.categories = categories;
    parents.set(name, entry);
  }
  for (const resource of list) {
    const name = typeof resource.name === "string" ? resource.name : "";
    const [parentName = "", subresource, ...rest] = name.split("/");
    if (subresource === undefined || rest.length > 0) continue;
    let parent = parents.get(parentName);
    if (!parent) {
      parent = { resource: parentName, responseKind: {}, scope: scopeOf(resource), verbs: [] };
      parents.set(parentName, parent);
    }
    const subresources = Array.isArray(parent.subresources) ? parent.subresources : [];
    subresources.push({
      subresource,
      responseKind: typeof resource.kind === "string" && resource.kind !== "" ? responseKind(resource) : {},
      verbs: stringsOf(resource.verbs) ?? [],
    });
    parent.subresources = subresources;
  }
  return [...parents.values()];
}

/**
 * The discovery of aggregated API servers, as kube-aggregator's discovery manager keeps it: each
 * APIService's group-version with the APIResourceList its backend last answered (fetched by the
 * availability controller), listed in `/apis` after the groups served here. A version whose
 * backend never answered is listed without resources.
 */
export class AggregatedDiscovery implements ExternalDiscovery {
  readonly #catalog: ApiServiceCatalog;
  readonly #registry: ResourceRegistry;
  readonly #resources = new Map<string, CachedResources>();

  constructor(catalog: ApiServiceCatalog, registry: ResourceRegistry) {
    this.#catalog = catalog;
    this.#registry = registry;
  }

  /** Records what an APIService's backend answered for its group-version. */
  record(apiServiceName: string, resourceList: JsonValue): void {
    const resources =
      isJsonObject(resourceList) && Array.isArray(resourceList.resources)
        ? resourceList.resources.filter(isJsonObject)
        : [];
    this.#resources.set(apiServiceName, { resources, stale: false });
  }

  /** The backend did not answer: keep what it said before, marked stale. */
  markStale(apiServiceName: string): void {
    const cached = this.#resources.get(apiServiceName);
    if (cached) cached.stale = true;
  }

  forget(apiServiceName: string): void {
    this.#resources.delete(apiServiceName);
  }

  extendGroupList(list: JsonObject): JsonObject {
    const groups = Array.isArray(list.groups) ? list.groups : [];
    return { ...list, groups: [...groups, ...this.#groups().map((group) => this.#apiGroupEntry(group))] };
  }

  extendGroupDiscoveryList(list: JsonObject): JsonObject {
    const items = Array.isArray(list.items) ? list.items : [];
    return { ...list, items: [...items, ...this.#groups().map((group) => this.#groupDiscovery(group))] };
  }

  /** The APIGroup of `GET /apis/<group>` for a group only other servers serve; undefined otherwise. */
  apiGroup(group: string): JsonObject | undefined {
    const found = this.#groups().find((candidate) => candidate.group === group);
    return found ? { kind: "APIGroup", apiVersion: "v1", ...this.#apiGroupEntry(found) } : undefined;
  }

  /** Groups with no version served here, highest groupPriorityMinimum first, as kube-aggregator sorts them. */
  #groups(): AggregatedGroup[] {
    const groups = new Map<string, AggregatedApiService[]>();
    const local = new Set(this.#registry.all().map((type) => type.group));
    for (const apiService of this.#catalog.all()) {
      if (local.has(apiService.group)) continue;
      groups.set(apiService.group, [...(groups.get(apiService.group) ?? []), apiService]);
    }
    const priority = (services: AggregatedApiService[]) =>
      Math.max(...services.map((s) => s.groupPriorityMinimum));
    return [...groups.entries()]
      .sort(([a, as], [b, bs]) => priority(bs) - priority(as) || (a < b ? -1 : a > b ? 1 : 0))
      .map(([group, apiServices]) => ({ group, apiServices: [...apiServices].sort(byPriority) }));
  }

  #apiGroupEntry(group: AggregatedGroup): JsonObject {
    const versions = group.apiServices.map((s) => ({
      groupVersion: groupVersionString(group.group, s.version),
      version: s.version,
    }));
    const entry: JsonObject = { name: group.group, versions };
    if (versions[0]) entry.preferredVersion = { ...versions[0] };
    return entry;
  }

  #groupDiscovery(group: AggregatedGroup): JsonObject {
    return {
      metadata: { name: group.group },
      versions: group.apiServices.map((apiService) => {
        const cached = this.#resources.get(apiService.name);
        return {
          version: apiService.version,
          resources: resourceDiscoveries(cached?.resources ?? []),
          freshness: cached && !cached.stale ? "Current" : "Stale",
        };
      }),
    };
  }
}
