import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, closeSync, constants, openSync, readFileSync, statSync } from "node:fs";
import { constants as osConstants } from "node:os";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import { type Clock, traceProgram } from "../../../runtime/index.js";
import { isSameProcessAlive, readProcStat } from "./proc-stat.js";

/** How a container process ended. */
export interface ProcessExit {
  /** The exit status, or 128 + the signal number when a signal ended it (as shells and kubelet report). */
  exitCode: number;
  /** Epoch ms (when the agent noticed). */
  finishedAt: number;
  /** False when the agent could not learn the real status (a process that ended while no agent ran). */
  known: boolean;
}

/** A running container process: one of ours, or one adopted from a previous run. */
export interface ContainerProcess {
  readonly pid: number;
  readonly startTicks: number;
  readonly exited: Promise<ProcessExit>;
  /** Signals the process group (the container's processes), if it still runs. */
  signal(signal: NodeJS.Signals): void;
  /** Stops watching (the agent stops) and leaves the process running. */
  release(): void;
}

export interface LaunchSpec {
  command: readonly string[];
  env: Readonly<Record<string, string>>;
  cwd: string;
  /** Opened for appending as the process's stdout and stderr. */
  logPath: string;
  /** Where the wrapper writes the exit status, for an agent that was not there to see it. */
  exitCodePath: string;
  /** Runs the command inside the pod's network, e.g. nsenter --net=... -- */
  execPrefix: readonly string[];
}

/** The container could not be started (containerd's StartError). */
export class StartError extends Error {
  override readonly name = "StartError";
}

/**
 * The process runs under a small /bin/sh wrapper that traps the termination signals (so its own
 * death does not hide the command's) and writes the command's exit status to `$0` — the only way
 * a restarted agent can learn how a process it did not spawn ended. The command itself gets the
 * default signal dispositions back (traps do not survive exec). Signals go to the process group.
 */
export const wrapperScript =
  'trap : HUP INT QUIT TERM USR1 USR2; "$@"; status=$?; echo "$status" > "$0"; exit "$status"';

/** True for the argv of a wrapper this agent started for a pod under `podsDir`. */
export function isContainerWrapper(argv: readonly string[], podsDir: string): boolean {
  return (
    argv[0] === "/bin/sh" &&
    argv[1] === "-c" &&
    argv[2] === wrapperScript &&
    (argv[3] ?? "").startsWith(`${podsDir}/`)
  );
}

/** Starts a container process, detached in its own session so it outlives the agent. */
export async function launchContainerProcess(spec: LaunchSpec, clock: Clock): Promise<ContainerProcess> {
  checkWorkingDir(spec.cwd);
  const [program, ...args] = spec.command;
  if (!program)
    throw new StartError("the container has no command: neither the pod nor the image map gives one");
  if (!findExecutable(program, spec.env.PATH ?? "", spec.cwd)) {
    throw new StartError(`exec: "${program}": executable file not found in $PATH`);
  }
  const log = openSync(spec.logPath, "a");
  let child: ChildProcess;
  try {
    const argv = [...spec.execPrefix, "/bin/sh", "-c", wrapperScript, spec.exitCodePath, program, ...args];
    child = spawn(argv[0] ?? "/bin/sh", argv.slice(1), {
      detached: true,
      stdio: ["ignore", log, log],
      env: { ...spec.env },
      cwd: spec.cwd,
    });
  } finally {
    closeSync(log);
  }
  // Read at once: until the loop runs again the child cannot have been reaped, at worst it is a zombie.
  const pid = child.pid;
  const stat = pid === undefined ? undefined : readProcStat(pid);
  const exited = new Promise<ProcessExit>((resolveExit) => {
    child.once("exit", (code, signal) =>
      resolveExit({ exitCode: code ?? 128 + signalNumber(signal), finishedAt: clock.now(), known: true }),
    );
  });
  const spawned = traceProgram(program, args);
  await new Promise<void>((resolveSpawn, rejectSpawn) => {
    child.once("spawn", resolveSpawn);
    child.once("error", (error) => rejectSpawn(new StartError(`cannot start ${program}`, { cause: error })));
  }).finally(spawned);
  child.unref();
  if (pid === undefined || !stat) throw new StartError(`${program} ended before it could be recorded`);
  // Once reaped, the pid (and group id) may be reused: never signal after the exit was seen.
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  return {
    pid,
    startTicks: stat.startTicks,
    exited,
    signal: (name) => {
      if (!ended) signalGroup(pid, name);
    },
    release: () => child.removeAllListeners("exit"),
  };
}

/**
 * Takes over a process of a previous run, identified by pid and start time (a reused pid is a
 * different process). Its end is noticed by polling /proc; its status comes from the
 * wrapper's exit file, or is unknown (137, as if killed) when it has none.
 */
export function adoptContainerProcess(
  record: { pid: number; startTicks: number; exitCodePath: string },
  clock: Clock,
  pollMs: number,
): ContainerProcess {
  let cancel: (() => void) | undefined;
  let released = false;
  const exited = new Promise<ProcessExit>((resolveExit) => {
    const check = (): void => {
      if (released) return;
      if (isSameProcessAlive(record.pid, record.startTicks)) {
        cancel = clock.schedule(check, pollMs);
        return;
      }
      resolveExit(readExitFile(record.exitCodePath, clock.now()));
    };
    check();
  });
  return {
    pid: record.pid,
    startTicks: record.startTicks,
    exited,
    signal: (name) => {
      if (isSameProcessAlive(record.pid, record.startTicks)) signalGroup(record.pid, name);
    },
    release: () => {
      released = true;
      cancel?.();
    },
  };
}

/** The status the wrapper wrote, or "unknown" (137) when it wrote none (it was killed). */
export function readExitFile(path: string, now: number): ProcessExit {
  try {
    const code = Number(readFileSync(path, "utf8").trim());
    if (Number.isInteger(code)) return { exitCode: code, finishedAt: now, known: true };
  } catch {
    // No file: the wrapper was killed with the command (SIGKILL), or never ran.
  }
  return { exitCode: 137, finishedAt: now, known: false };
}

/** Signals a process group; a group that is gone already is fine. */
export function signalGroup(processGroup: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-processGroup, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

function signalNumber(signal: NodeJS.Signals | null): number {
  return signal ? (osConstants.signals[signal] ?? 9) : 0;
}

function checkWorkingDir(cwd: string): void {
  try {
    if (statSync(cwd).isDirectory()) return;
  } catch {
    // fall through
  }
  throw new StartError(`chdir to cwd ("${cwd}") set in config.json failed: no such file or directory`);
}

/** PATH lookup as exec does it; a name with a slash is taken relative to the working dir. */
export function findExecutable(program: string, path: string, cwd: string): string | undefined {
  const candidates = program.includes("/")
    ? [isAbsolute(program) ? program : resolve(cwd, program)]
    : path
        .split(delimiter)
        .filter((dir) => dir !== "")
        .map((dir) => join(dir, program));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
