/**
 * subresources.kubevirt.io's discovery documents, in the shape KubeVirt's virt-api serves them:
 * the APIGroup, and an APIResourceList whose entries are subresource names only (no kind, no
 * verbs: nothing in this group is an object one could list).
 */
import { SUBRESOURCE_GROUP, SUBRESOURCE_ROUTES, SUBRESOURCE_VERSION } from "./request-target.js";

const GROUP_VERSION = `${SUBRESOURCE_GROUP}/${SUBRESOURCE_VERSION}`;

/** The one resource of the group that is on a namespace, not on a VM or VMI (PUT a VM, get it expanded). */
export const EXPAND_VM_SPEC = "expand-vm-spec";

export function apiGroup() {
  const version = { groupVersion: GROUP_VERSION, version: SUBRESOURCE_VERSION };
  return {
    kind: "APIGroup",
    apiVersion: "v1",
    name: SUBRESOURCE_GROUP,
    versions: [version],
    preferredVersion: version,
  };
}

export function apiResourceList() {
  return {
    kind: "APIResourceList",
    apiVersion: "v1",
    groupVersion: GROUP_VERSION,
    resources: [
      EXPAND_VM_SPEC,
      ...Object.entries(SUBRESOURCE_ROUTES).flatMap(([subresource, route]) =>
        route.resources.map((resource) => `${resource}/${subresource}`),
      ),
    ].map((name) => ({
      name,
      singularName: "",
      namespaced: true,
      kind: "",
      // Empty rather than KubeVirt's null: the same to Go clients, and safe for clients that iterate.
      verbs: [] as string[],
    })),
  };
}
