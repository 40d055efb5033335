import type { ResourceType } from "../resource-type.js";

/** What a resource URL names: a collection, an object, or a subresource of one. */
export interface RequestTarget {
  type: ResourceType;
  /** "" for cluster-scoped resources and for lists across all namespaces. */
  namespace: string;
  /** Whether the URL named a namespace (lists across namespaces do not). */
  namespaced: boolean;
  name?: string;
  subresource?: string;
}
