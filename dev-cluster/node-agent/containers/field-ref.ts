import type { CachedPod } from "../kinds.js";
import type { PodNetworkAttachment } from "../network/pod-network.js";

/** A container's configuration cannot be resolved: kubelet's CreateContainerConfigError. */
export class ContainerConfigError extends Error {
  override readonly name = "ContainerConfigError";
}

/**
 * The downward API's `fieldRef` values. The pod's addresses come from its network attachment:
 * they are known before the status that carries them is written.
 */
export function fieldRefValue(fieldPath: string, pod: CachedPod, network: PodNetworkAttachment): string {
  const metadata = pod.metadata ?? {};
  const keyed = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(fieldPath);
  if (keyed) {
    const map = keyed[1] === "labels" ? metadata.labels : metadata.annotations;
    return map?.[keyed[2] ?? ""] ?? "";
  }
  switch (fieldPath) {
    case "metadata.name":
      return metadata.name ?? "";
    case "metadata.namespace":
      return metadata.namespace ?? "";
    case "metadata.uid":
      return metadata.uid ?? "";
    case "metadata.labels":
      return formatMap(metadata.labels);
    case "metadata.annotations":
      return formatMap(metadata.annotations);
    case "spec.nodeName":
      return pod.spec?.nodeName ?? "";
    case "spec.serviceAccountName":
      return pod.spec?.serviceAccountName ?? "";
    case "status.podIP":
    case "status.podIPs":
      return network.podIP;
    case "status.hostIP":
    case "status.hostIPs":
      return network.hostIP;
    default:
      throw new ContainerConfigError(`unsupported fieldRef "${fieldPath}"`);
  }
}

/** The downward API's `key="value"` lines, sorted. */
function formatMap(map: Readonly<Record<string, string>> | undefined): string {
  return Object.keys(map ?? {})
    .sort()
    .map((key) => `${key}=${JSON.stringify(map?.[key] ?? "")}`)
    .join("\n");
}
