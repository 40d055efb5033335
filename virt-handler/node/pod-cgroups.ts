/**
 * A VM's QEMU belongs to its launcher pod's cgroups. The pod's limits then bound the VM and the node's
 * accounting (kubelet, eviction, metrics) sees it, as KubeVirt has it with QEMU inside the compute
 * container. libvirtd starts QEMU in cgroups of its own, so virt-handler moves the process into
 * those of the launcher's compute container. It finds them through the launcher's own processes,
 * whatever the kubelet's cgroup driver named them.
 *
 * Only the accounting hierarchies are joined: memory, cpu and cpuacct, pids, blkio. The container's
 * devices cgroup would deny QEMU the devices libvirt opened for it, and cpuset and freezer are
 * libvirt's. A pod whose cgroups do not carry its uid gets nothing. That is the dev cluster, whose
 * node agent runs pods as plain processes without cgroups of their own.
 */
import { access, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** cgroup v1 hierarchies (as /proc/PID/cgroup names them) that account a process's use. */
const ACCOUNTING_HIERARCHIES = new Set(["memory", "cpu", "cpuacct", "cpu,cpuacct", "pids", "blkio"]);
/** The unified (v2) hierarchy's name in /proc/PID/cgroup: empty. */
const UNIFIED = "";

export interface CgroupTarget {
  /** The hierarchy's controllers ("memory", "cpu,cpuacct"), "" for cgroup v2. */
  readonly hierarchy: string;
  /** The cgroup's path within its hierarchy, as /proc/PID/cgroup shows it. */
  readonly path: string;
  /** Its directory: `<cgroup root>/<hierarchy mount>/<path>`. */
  readonly dir: string;
}

export class PodCgroupError extends Error {
  override readonly name = "PodCgroupError";
  readonly reason = "LauncherCgroupUnavailable";
}

/** /proc/PID/cgroup: `ID:CONTROLLERS:PATH` lines → controllers ("" for v2) → path. */
export function parseProcCgroup(text: string): Map<string, string> {
  const byHierarchy = new Map<string, string>();
  for (const line of text.split("\n")) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line.trim());
    if (match?.[2] !== undefined) byHierarchy.set(match[1] ?? "", match[2]);
  }
  return byHierarchy;
}

/** Whether a cgroup path is pod `podUid`'s: the cgroupfs driver writes pod<uid>, systemd's pod<uid with _>. */
export function isPodCgroupPath(path: string, podUid: string): boolean {
  const segments = path.split("/");
  const forms = [`pod${podUid}`, `pod${podUid.replaceAll("-", "_")}`];
  return segments.some((segment) =>
    forms.some((form) => segment === form || segment.endsWith(`-${form}.slice`)),
  );
}

/**
 * The accounting cgroups of the launcher's compute container, from its processes' /proc/PID/cgroup;
 * undefined when they are not the pod's own (no pod cgroups on this node) or none runs yet.
 */
export async function launcherCgroupTargets(options: {
  launcherPids: readonly number[];
  podUid: string;
  procDir?: string;
  cgroupRoot?: string;
}): Promise<CgroupTarget[] | undefined> {
  const procDir = options.procDir ?? "/proc";
  const cgroupRoot = options.cgroupRoot ?? "/sys/fs/cgroup";
  const seen = new Set<string>();
  let chosen: Map<string, string> | undefined;
  for (const pid of options.launcherPids) {
    const text = await readFile(join(procDir, String(pid), "cgroup"), "utf8").catch(() => undefined);
    if (text === undefined) continue;
    const accounting = accountingHierarchies(parseProcCgroup(text));
    seen.add(JSON.stringify(accounting));
    chosen = new Map(accounting);
  }
  if (seen.size > 1) {
    throw new PodCgroupError(
      `processes in ${seen.size} different cgroups claim launcher pod ${options.podUid}: refusing to choose`,
    );
  }
  if (chosen === undefined || chosen.size === 0) return undefined;
  const targets: CgroupTarget[] = [];
  for (const [hierarchy, path] of chosen) {
    if (!isPodCgroupPath(path, options.podUid)) return undefined;
    const dir = hierarchy === UNIFIED ? join(cgroupRoot, path) : join(cgroupRoot, hierarchy, path);
    try {
      await access(join(dir, "cgroup.procs"));
    } catch (error) {
      throw new PodCgroupError(`launcher pod ${options.podUid}'s cgroup ${dir} is not reachable here`, {
        cause: error,
      });
    }
    targets.push({ hierarchy, path, dir });
  }
  return targets;
}

/**
 * The hierarchies that account a process: v1's, or, on a cgroup v2 host, the unified one. A hybrid
 * host (v1 controllers, and a v2 hierarchy only for tracking processes, as here) lists a `0::`
 * line too, whose directory holds no controllers and may not even be mounted: it is left alone.
 */
function accountingHierarchies(byHierarchy: ReadonlyMap<string, string>): [string, string][] {
  const v1 = [...byHierarchy].filter(([hierarchy]) => ACCOUNTING_HIERARCHIES.has(hierarchy));
  if (v1.length > 0) return v1;
  const unified = byHierarchy.get(UNIFIED);
  return unified === undefined ? [] : [[UNIFIED, unified]];
}

/** Whether process `pid` is in every target cgroup already. */
export async function isInCgroups(
  pid: number,
  targets: readonly CgroupTarget[],
  procDir = "/proc",
): Promise<boolean> {
  const text = await readFile(join(procDir, String(pid), "cgroup"), "utf8");
  const current = parseProcCgroup(text);
  return targets.every((target) => current.get(target.hierarchy) === target.path);
}

/**
 * Moves process `pid` (all its threads) into the target cgroups. Memory QEMU allocated before the
 * move stays charged where it was unless the kernel can move charges (cgroup v1's
 * move_charge_at_immigrate, refused by newer kernels such as this machine's 6.18): hence the move
 * right after the start, before the guest runs.
 */
export async function moveIntoCgroups(pid: number, targets: readonly CgroupTarget[]): Promise<void> {
  for (const target of targets) {
    try {
      if (target.hierarchy === "memory") await moveChargeAlong(target.dir);
      await writeFile(join(target.dir, "cgroup.procs"), String(pid));
    } catch (error) {
      throw new PodCgroupError(`cannot move QEMU (pid ${pid}) into ${target.dir}`, { cause: error });
    }
  }
}

/** Asks a v1 memory cgroup to take the charges of what moves in; kernels that no longer can say EINVAL. */
async function moveChargeAlong(dir: string): Promise<void> {
  try {
    await writeFile(join(dir, "memory.move_charge_at_immigrate"), "1");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EINVAL" && code !== "ENOENT") throw error;
  }
}
