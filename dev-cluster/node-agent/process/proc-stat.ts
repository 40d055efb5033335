import { readdirSync, readFileSync } from "node:fs";

/** What /proc/<pid>/stat says about a process that the agent cares about. */
export interface ProcStat {
  pid: number;
  /** R, S, D, Z (zombie), X (dead), ... */
  state: string;
  processGroup: number;
  /** Clock ticks after boot at which the process started: with the pid, it names one process. */
  startTicks: number;
}

/** Reads /proc/<pid>/stat; undefined when there is no such process. */
export function readProcStat(pid: number, procRoot = "/proc"): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`${procRoot}/${pid}/stat`, "latin1");
  } catch {
    return undefined;
  }
  return parseProcStat(text);
}

/** Parses a stat line; the command name (field 2) may hold spaces and parentheses. */
export function parseProcStat(text: string): ProcStat | undefined {
  const close = text.lastIndexOf(")");
  if (close < 0) return undefined;
  const pid = Number(text.slice(0, text.indexOf(" ")));
  const fields = text
    .slice(close + 2)
    .trim()
    .split(" ");
  // fields[0] is field 3 (state); field 5 is the process group, field 22 the start time.
  const state = fields[0];
  const processGroup = Number(fields[2]);
  const startTicks = Number(fields[19]);
  if (!state || !Number.isInteger(pid) || !Number.isFinite(startTicks)) return undefined;
  return { pid, state, processGroup, startTicks };
}

/** True while the process `pid` that started at `startTicks` exists and has not exited. */
export function isSameProcessAlive(pid: number, startTicks: number, procRoot = "/proc"): boolean {
  const stat = readProcStat(pid, procRoot);
  return stat !== undefined && stat.startTicks === startTicks && stat.state !== "Z" && stat.state !== "X";
}

/** Pids of processes whose command line (argv) satisfies `matches`. */
export function findProcesses(matches: (argv: string[]) => boolean, procRoot = "/proc"): number[] {
  const found: number[] = [];
  for (const entry of readdirSync(procRoot)) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`${procRoot}/${entry}/cmdline`, "utf8").split("\0");
      if (matches(argv)) found.push(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return found;
}
