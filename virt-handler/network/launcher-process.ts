// Finding the network namespace of a VMI's launcher pod on this node. virt-controller gives the
// launcher container its own pod's uid (downward API) in KUBEVIRT_LAUNCHER_POD_UID; virt-handler,
// which sees the node's processes (hostPID, as KubeVirt's), looks for the processes carrying it.
// A process's environment is fixed by whoever started it, so only a pod that declared that uid
// matches; should pods in two namespaces claim one uid (a tenant copying it), virt-handler refuses
// rather than choose: the VM's traffic must never enter a namespace that is not its launcher's.
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { LAUNCHER_NETWORK } from "../../api/index.js";

export interface LauncherNetns {
  /** A process of the launcher pod: `/proc/<pid>/ns/net` is the pod's network namespace. */
  pid: number;
  /** `/proc/<pid>/ns/net`, for nsenter --net and `ip link set ... netns`. */
  path: string;
}

export class LauncherNetnsError extends Error {
  override readonly name = "LauncherNetnsError";
  readonly reason = "LauncherNetworkUnavailable";
}

/**
 * The launcher pod's network namespace, found through the processes whose environment names
 * `podUid`; undefined while none runs yet (the pod's container has not started).
 */
export async function findLauncherNetns(
  podUid: string,
  procDir = "/proc",
): Promise<LauncherNetns | undefined> {
  const matches: { pid: number; netns: number }[] = [];
  for (const pid of await launcherProcessIds(podUid, procDir)) {
    const netns = await stat(join(procDir, String(pid), "ns", "net")).catch(() => undefined);
    if (netns !== undefined) matches.push({ pid, netns: netns.ino });
  }
  const first = matches[0];
  if (first === undefined) return undefined;
  if (matches.some((match) => match.netns !== first.netns)) {
    throw new LauncherNetnsError(
      `processes in ${new Set(matches.map((match) => match.netns)).size} network namespaces claim launcher pod ${podUid}: refusing to choose`,
    );
  }
  const own = await stat(join(procDir, "self", "ns", "net"));
  const node = await stat(await libvirtdNetns(procDir));
  if (own.ino === first.netns || node.ino === first.netns) {
    throw new LauncherNetnsError(
      `launcher pod ${podUid} runs in the node's or virt-handler's network namespace: a VM's traffic must stay in its pod`,
    );
  }
  return { pid: first.pid, path: join(procDir, String(first.pid), "ns", "net") };
}

/** The processes whose environment names launcher pod `podUid` (its compute container's). */
export async function launcherProcessIds(podUid: string, procDir = "/proc"): Promise<number[]> {
  const wanted = launcherEnvEntry(podUid);
  const pids: number[] = [];
  for (const entry of await readdir(procDir)) {
    if (!/^\d+$/.test(entry)) continue;
    const environ = await readFile(join(procDir, entry, "environ")).catch(() => undefined);
    if (environ !== undefined && startsOrContains(environ, wanted)) pids.push(Number(entry));
  }
  return pids;
}

/**
 * Whether process `pid` is still one of launcher pod `podUid`'s, for a caller that keeps the pid
 * `findLauncherNetns` gave: the process may have ended and its pid gone to another.
 */
export async function isLauncherProcess(pid: number, podUid: string, procDir = "/proc"): Promise<boolean> {
  const environ = await readFile(join(procDir, String(pid), "environ")).catch(() => undefined);
  return environ !== undefined && startsOrContains(environ, launcherEnvEntry(podUid));
}

function launcherEnvEntry(podUid: string): Buffer {
  return Buffer.from(`${LAUNCHER_NETWORK.podUidEnv}=${podUid}\0`);
}

/** The daemons QEMU is started by (the monolithic one, or the modular QEMU driver). */
const LIBVIRT_DAEMONS = new Set(["libvirtd", "virtqemud"]);

/**
 * The network namespace libvirt opens taps in (and QEMU runs in): its daemon's. virt-handler
 * sees the node's processes (hostPID); a node without a running daemon cannot start VMs anyway.
 */
export async function libvirtdNetns(procDir = "/proc"): Promise<string> {
  return join(procDir, await libvirtdPid(procDir), "ns", "net");
}

/**
 * The node's own root filesystem as the libvirt daemon sees it (`/proc/<pid>/root`): the node's
 * cgroup hierarchies are there, where a container's /sys/fs/cgroup shows only its own.
 */
export async function libvirtdRoot(procDir = "/proc"): Promise<string> {
  return join(procDir, await libvirtdPid(procDir), "root");
}

async function libvirtdPid(procDir: string): Promise<string> {
  // The daemon found last, while it still is one: every VM start asks, and a scan of the node's
  // processes costs a read per process.
  const known = lastDaemon.get(procDir);
  if (known !== undefined && (await isLibvirtDaemon(procDir, known))) return known;
  for (const entry of await readdir(procDir)) {
    if (!/^\d+$/.test(entry) || !(await isLibvirtDaemon(procDir, entry))) continue;
    lastDaemon.set(procDir, entry);
    return entry;
  }
  throw new LauncherNetnsError("no libvirt daemon (libvirtd or virtqemud) runs on this node");
}

/** The pid of the libvirt daemon found last, per /proc directory. */
const lastDaemon = new Map<string, string>();

async function isLibvirtDaemon(procDir: string, pid: string): Promise<boolean> {
  const comm = await readFile(join(procDir, pid, "comm"), "utf8").catch(() => "");
  return LIBVIRT_DAEMONS.has(comm.trim());
}

/** `environ` is NUL-separated: the variable is at the start or right after a NUL. */
function startsOrContains(environ: Buffer, wanted: Buffer): boolean {
  if (environ.subarray(0, wanted.length).equals(wanted)) return true;
  const afterNul = Buffer.concat([Buffer.from([0]), wanted]);
  return environ.includes(afterNul);
}
