import { posix } from "node:path";

/** The kubelet's root directory on a node (`--root-dir`), which pods may mount by hostPath. */
export const KUBELET_ROOT = "/var/lib/kubelet";

/**
 * The directory a hostPath volume names on this node. On a real node a hostPath under
 * /var/lib/kubelet IS the kubelet's own directory (pods that read other pods' volumes mount
 * /var/lib/kubelet/pods, as node agents and CSI drivers do); the agent's kubelet directory is its
 * data directory, so such a path is mapped there (/var/lib/kubelet/pods → <dataDir>/pods). Any
 * other path is the host's own.
 */
export function nodeHostPath(path: string, kubeletRoot: string): string {
  const normal = posix.normalize(path);
  if (normal === KUBELET_ROOT || normal === `${KUBELET_ROOT}/`) return kubeletRoot;
  if (!normal.startsWith(`${KUBELET_ROOT}/`)) return path;
  return posix.join(kubeletRoot, normal.slice(KUBELET_ROOT.length + 1));
}
