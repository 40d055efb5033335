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
      const fields = statFields(pid);
      const who = whoIs(pid, fields);
      // Children's time counts for the components (the programs they ran), not for others: a
      // shell that reaps a long job would claim all of it.
      const counted = who.startsWith("other") ? [11, 12] : [11, 12, 13, 14];
      const ticks = counted.reduce((sum, index) => sum + Number(fields[index] ?? 0), 0);
      snapshot.set(pid, { who, seconds: ticks / TICKS_PER_SECOND });
    } catch {
      // ended meanwhile
    }
  }
  return snapshot;
}

/** /proc/<pid>/stat's fields after the command (which may hold spaces): fields[1] is the ppid. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
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

function whoIs(pid: number, fields: string[]): string {
  if (pid === process.pid) return "this benchmark (watches)";
  const comm = readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  if (comm.startsWith("qemu-system")) return "QEMU (guests)";
  if (comm === "libvirtd") return "libvirtd";
  // Kernel workers by their work queue (kworker/u8:2-ipv6_addrconf → ipv6_addrconf): the queue
  // they ran last, which is not always the one they spent the time on.
  if (comm.startsWith("kworker/")) return `kernel: ${comm.split("-").slice(1).join("-") || "kworker"}`;
  const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  const script = argv[1] ?? "";
  // A component's program runner (runtime/programs) spawns for it: its time is the component's.
  if (script.endsWith("/runtime/programs/program-runner-child.js")) {
    const parent = Number(fields[1]);
    return parent > 1 ? whoIs(parent, statFields(parent)) : "other: program runner";
  }
  const component = COMPONENTS.find((name) => script.endsWith(`/${name}/main.js`));
  return component ?? `other: ${comm}`;
}
