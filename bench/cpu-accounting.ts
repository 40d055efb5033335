// CPU time by who spent it, between two snapshots of /proc: the components (by their entry
// point), libvirtd, the guests' QEMU and this benchmark. A process's children that ended count
// for it (cutime/cstime), so the programs a component ran are the component's.
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks a second (USER_HZ): 100 on Linux for every architecture this runs on. */
const TICKS_PER_SECOND = 100;
const COMPONENTS = ["dev-cluster", "virt-api", "virt-controller", "virt-handler", "virt-operator"];

export type CpuSnapshot = ReadonlyMap<number, { readonly who: string; readonly seconds: number }>;

export function cpuSnapshot(): CpuSnapshot {
  const snapshot = new Map<number, { who: string; seconds: number }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // Fields after the command (which may hold spaces) start at the last ')'.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index] ?? 0), 0);
      snapshot.set(pid, { who: whoIs(pid), seconds: ticks / TICKS_PER_SECOND });
    } catch {
      // ended meanwhile
    }
  }
  return snapshot;
}

/** CPU seconds spent between the snapshots, by who, largest first (less than 0.05 s: left out). */
export function cpuSpent(before: CpuSnapshot, after: CpuSnapshot): [string, number][] {
  const spent = new Map<string, number>();
  for (const [pid, { who, seconds }] of after) {
    const earlier = before.get(pid);
    const delta = earlier?.who === who ? seconds - earlier.seconds : seconds;
    if (delta > 0) spent.set(who, (spent.get(who) ?? 0) + delta);
  }
  return [...spent].filter(([, seconds]) => seconds >= 0.05).sort((a, b) => b[1] - a[1]);
}

function whoIs(pid: number): string {
  if (pid === process.pid) return "this benchmark (watches)";
  const comm = readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  if (comm.startsWith("qemu-system")) return "QEMU (guests)";
  if (comm === "libvirtd") return "libvirtd";
  // Kernel workers by their work queue (kworker/u8:2-ipv6_addrconf → ipv6_addrconf).
  if (comm.startsWith("kworker/")) return `kernel: ${comm.split("-").slice(1).join("-") || "kworker"}`;
  const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  const component = COMPONENTS.find((name) => (argv[1] ?? "").endsWith(`/${name}/main.js`));
  return component ?? `other: ${comm}`;
}
