import type { JsonObject } from "../json.js";
import type { ResourceType } from "../resource-type.js";
import { type DiscoveryGroup, discoveryGroups, groupVersionString, resourceVerbs } from "./api-groups.js";
import { subresourcesOf } from "./subresources.js";

/** The body of `GET /api`: the core group's versions and where clients reach the server. */
export function apiVersions(serverAddress: string): JsonObject {
  const versions = ["v1"];
  return {
    kind: "APIVersions",
    versions,
    serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress }],
  };
}

function groupEntry(group: DiscoveryGroup): JsonObject {
  const versions = group.versions.map((v) => ({
    groupVersion: groupVersionString(group.group, v.version),
    version: v.version,
  }));
  const preferred = versions[0];
  const entry: JsonObject = { name: group.group, versions };
  if (preferred) entry.preferredVersion = { ...preferred };
  return entry;
}

function namedGroups(types: readonly ResourceType[]): DiscoveryGroup[] {
  return discoveryGroups(types).filter((group) => group.group !== "");
}

/** The body of `GET /apis`: every group except the core one. */
export function apiGroupList(types: readonly ResourceType[]): JsonObject {
  return { kind: "APIGroupList", apiVersion: "v1", groups: namedGroups(types).map(groupEntry) };
}

/** The body of `GET /apis/<group>`, or undefined when no resource belongs to the group. */
export function apiGroup(types: readonly ResourceType[], group: string): JsonObject | undefined {
  const found = namedGroups(types).find((candidate) => candidate.group === group);
  return found ? { kind: "APIGroup", apiVersion: "v1", ...groupEntry(found) } : undefined;
}

function resourceEntries(type: ResourceType): JsonObject[] {
  const main: JsonObject = {
    name: type.plural,
    singularName: type.singular,
    namespaced: type.namespaced,
    kind: type.kind,
    verbs: [...(type.verbs ?? resourceVerbs)],
  };
  if (type.shortNames.length > 0) main.shortNames = [...type.shortNames];
  if (type.categories.length > 0) main.categories = [...type.categories];
  const subresources = subresourcesOf(type).map((sub) => {
    const entry: JsonObject = {
      name: `${type.plural}/${sub.name}`,
      singularName: "",
      namespaced: type.namespaced,
      kind: sub.responseKind.kind,
      verbs: sub.verbs,
    };
    // Only kinds of another group-version carry group/version, as upstream (scale → autoscaling/v1).
    if (sub.responseKind.group !== "" || sub.responseKind.version !== "") {
      entry.group = sub.responseKind.group;
      entry.version = sub.responseKind.version;
    }
    return entry;
  });
  return [main, ...subresources];
}

/**
 * The body of `GET /api/v1` or `GET /apis/<group>/<version>` (`groupVersion` is `v1` or
 * `<group>/<version>`), or undefined when nothing is served there. Subresources are entries of
 * their own, named `<plural>/<subresource>`.
 */
export function apiResourceList(
  types: readonly ResourceType[],
  groupVersion: string,
): JsonObject | undefined {
  const members = types.filter((type) => groupVersionString(type.group, type.version) === groupVersion);
  if (members.length === 0) return undefined;
  const [version] = discoveryGroups(members).flatMap((group) => group.versions);
  return {
    kind: "APIResourceList",
    apiVersion: "v1",
    groupVersion,
    resources: (version?.types ?? []).flatMap(resourceEntries),
  };
}
