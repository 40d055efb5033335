import type { ResourceType } from "../resource-type.js";
import { compareKubeVersions } from "./version-priority.js";

export interface DiscoveryVersion {
  version: string;
  /** The resources of this group-version, sorted by plural name. */
  types: ResourceType[];
}

export interface DiscoveryGroup {
  /** "" for the legacy core group served on /api. */
  group: string;
  /** Highest priority first: the first one is the preferred version. */
  versions: DiscoveryVersion[];
}

/** The verbs every resource answers; discovery lists them sorted, as upstream does. */
export const resourceVerbs = [
  "create",
  "delete",
  "deletecollection",
  "get",
  "list",
  "patch",
  "update",
  "watch",
];

/** `v1` for the core group, `<group>/<version>` otherwise. */
export function groupVersionString(group: string, version: string): string {
  return group === "" ? version : `${group}/${version}`;
}

/**
 * Groups come in a stable order: the core group, then groups holding built-in kinds, then the
 * others, each alphabetically. Clients resolve ambiguous names (a CRD plural equal to a built-in
 * one) to the first group listed, so built-ins must come first, as in a real cluster.
 */
function compareGroups(a: DiscoveryGroupDraft, b: DiscoveryGroupDraft): number {
  const rank = (draft: DiscoveryGroupDraft) => (draft.group === "" ? 0 : draft.builtin ? 1 : 2);
  return rank(a) - rank(b) || (a.group < b.group ? -1 : a.group > b.group ? 1 : 0);
}

interface DiscoveryGroupDraft {
  group: string;
  builtin: boolean;
  versions: Map<string, ResourceType[]>;
}

/** Sorts resource types into groups and versions, in the order discovery documents list them. */
export function discoveryGroups(types: readonly ResourceType[]): DiscoveryGroup[] {
  const drafts = new Map<string, DiscoveryGroupDraft>();
  for (const type of types) {
    let draft = drafts.get(type.group);
    if (!draft) {
      draft = { group: type.group, builtin: false, versions: new Map() };
      drafts.set(type.group, draft);
    }
    draft.builtin ||= type.builtin;
    const versionTypes = draft.versions.get(type.version) ?? [];
    versionTypes.push(type);
    draft.versions.set(type.version, versionTypes);
  }
  return [...drafts.values()].sort(compareGroups).map((draft) => ({
    group: draft.group,
    versions: [...draft.versions.entries()]
      .sort(([a], [b]) => compareKubeVersions(a, b))
      .map(([version, versionTypes]) => ({
        version,
        types: [...versionTypes].sort((a, b) => (a.plural < b.plural ? -1 : a.plural > b.plural ? 1 : 0)),
      })),
  }));
}
