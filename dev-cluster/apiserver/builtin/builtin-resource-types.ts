import type { ResourceType } from "../resource-type.js";
import { appsKinds } from "./apps-kinds.js";
import { resourceTypeOf } from "./builtin-kind.js";
import { clusterKinds } from "./cluster-kinds.js";
import { coreKinds } from "./core-kinds.js";
import { storageKinds } from "./storage-kinds.js";

/**
 * The built-in resources this API server serves, described as Kubernetes 1.32 serves them
 * (names, scope, short names, categories, subresources) with their defaulting, validation,
 * pruning, field selectors, `kubectl get` tables, merge semantics and OpenAPI schemas.
 */
export function builtinResourceTypes(): ResourceType[] {
  return [...coreKinds, ...storageKinds, ...appsKinds, ...clusterKinds].map(resourceTypeOf);
}
