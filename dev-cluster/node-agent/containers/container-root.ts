import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";

/** Where containers find their service-account files, as client libraries expect them. */
export const serviceAccountMountPath = "/var/run/secrets/kubernetes.io/serviceaccount";

/**
 * The container's mounts as a tree of symlinks: `<root><mountPath>` points at the volume's host
 * path. Processes share the host's file system, so a path inside the container is found at
 * `$KUBEVIRT_TS_ROOT<path>`; client-node's `loadFromCluster(process.env.KUBEVIRT_TS_ROOT)`, for
 * one, then finds the token and CA where it always looks.
 */
export function buildContainerRoot(root: string, mounts: Readonly<Record<string, string>>): void {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  // Shorter paths first, so a mount inside another mount's path is not hidden by it.
  for (const mountPath of Object.keys(mounts).sort((a, b) => a.length - b.length)) {
    const link = join(root, mountPath);
    if (link === root || !link.startsWith(`${root}/`)) continue;
    mkdirSync(dirname(link), { recursive: true });
    rmSync(link, { recursive: true, force: true });
    symlinkSync(mounts[mountPath] ?? "", link);
  }
}
