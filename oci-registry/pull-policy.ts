// Kubernetes' image pull policies, with kubelet's default: Always for ":latest" or no tag (the tag is
// resolved again on every pull; content already cached by digest is reused), IfNotPresent otherwise.
import type { ImageReference } from "./image-reference.js";

export type PullPolicy = "Always" | "IfNotPresent" | "Never";

export function defaultPullPolicy(reference: ImageReference): PullPolicy {
  if (reference.digest !== undefined && reference.tag === undefined) return "IfNotPresent";
  return reference.tag === undefined || reference.tag === "latest" ? "Always" : "IfNotPresent";
}
