import { join } from "node:path";

/**
 * Where a path of the container is on this host. In a real container it is the path itself; under the
 * dev cluster's node agent, processes share the host's file system and find each mount through
 * `KUBEVIRT_TS_VOLUME_MOUNTS` (mountPath → host path) or, failing that, under `KUBEVIRT_TS_ROOT`
 * (dev-cluster/node-agent/README.md, "What a container process gets").
 */
export function hostPathOf(containerPath: string, env: NodeJS.ProcessEnv): string {
  const mounts = mountTable(env.KUBEVIRT_TS_VOLUME_MOUNTS);
  // The longest mount that holds the path, as a mount inside another hides the outer one there.
  const holder = Object.keys(mounts)
    .filter((mount) => containerPath === mount || containerPath.startsWith(`${mount.replace(/\/$/, "")}/`))
    .sort((a, b) => b.length - a.length)[0];
  if (holder !== undefined) {
    const rest = containerPath.slice(holder.replace(/\/$/, "").length);
    return `${mounts[holder] ?? ""}${rest}`;
  }
  const root = env.KUBEVIRT_TS_ROOT;
  if (root) return join(root, containerPath);
  return containerPath;
}

function mountTable(text: string | undefined): Record<string, string> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
    );
  } catch {
    // A malformed table is no mapping: the literal paths are tried, as in a real container.
    return {};
  }
}
