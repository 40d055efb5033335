import type { PullPolicy } from "../core/scheduling.js";

/**
 * Kubernetes' rule for an image without an explicit pull policy: `Always` for `:latest` or an
 * untagged image, `IfNotPresent` for any other tag or a digest.
 */
export function defaultPullPolicy(image: string): PullPolicy {
  if (image.includes("@")) return "IfNotPresent";
  const lastSegment = image.slice(image.lastIndexOf("/") + 1);
  const colon = lastSegment.lastIndexOf(":");
  if (colon === -1) return "Always";
  return lastSegment.slice(colon + 1) === "latest" ? "Always" : "IfNotPresent";
}
