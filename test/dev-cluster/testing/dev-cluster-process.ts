import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { fileURLToPath } from "node:url";
import { linkNames } from "./host-resources.js";

/** The compiled `dev-cluster` CLI next to this compiled test (dist/ or a private build dir). */
export const devClusterMain = fileURLToPath(new URL("../../../dev-cluster/main.js", import.meta.url));

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A running `dev-cluster up`, as a user starts it in a terminal. */
export interface DevClusterProcess {
  readonly pid: number;
  /** The API server URL printed once the cluster is up. */
  readonly url: string;
  /** Settles when the process has ended. */
  readonly exited: Promise<ProcessExit>;
  /** Whether the process still runs. */
  running(): boolean;
  /** The last lines it printed (stdout and stderr), for failure messages. */
  tail(lines?: number): string;
}

const upLine = /^dev cluster is up at (\S+) /m;

/**
 * Starts `node <main> up ...args` in a process group of its own (so cleanup can end it with
 * everything it started in its group), copies its output to `logPath`, and resolves once it
 * prints that it is up. Rejects if it exits first or takes longer than `timeoutMs`.
 */
export function startDevClusterUp(
  args: readonly string[],
  logPath: string,
  timeoutMs = 20_000,
): Promise<DevClusterProcess> {
  // Several dev clusters run at once in tests: each registry on a port of its own (args may override).
  const registry = ["--registry-address", "127.0.0.1:0"];
  const child = spawn(process.execPath, [devClusterMain, "up", ...registry, ...args], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, LOG_LEVEL: process.env.TEST_DEV_CLUSTER_LOG_LEVEL ?? "info" },
  });
  const log = createWriteStream(logPath, { flags: "a" });
  const recent: string[] = [];
  const exited = new Promise<ProcessExit>((resolve) =>
    child.once("exit", (code, signal) => {
      log.end();
      resolve({ code, signal });
    }),
  );
  let state: "running" | "exited" = "running";
  void exited.then(() => {
    state = "exited";
  });
  const tail = (lines = 15) => recent.slice(-lines).join("\n");
  return new Promise((resolve, reject) => {
    let printed = "";
    const timer = setTimeout(() => {
      reject(new Error(`dev-cluster up printed no "dev cluster is up" within ${timeoutMs} ms:\n${tail()}`));
    }, timeoutMs);
    const onOutput = (chunk: Buffer): void => {
      keepRecentLines(recent, chunk, log);
      printed += chunk.toString("utf8");
      const match = upLine.exec(printed);
      if (!match?.[1] || !child.pid) return;
      clearTimeout(timer);
      printed = "";
      const pid = child.pid;
      const url = match[1];
      resolve({ pid, url, exited, running: () => state === "running", tail });
    };
    child.stdout?.on("data", onOutput);
    child.stderr?.on("data", onOutput);
    void exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`dev-cluster up exited (${JSON.stringify(exit)}) before it was up:\n${tail()}`));
    });
    child.once("error", (error) => reject(new Error("cannot start dev-cluster up", { cause: error })));
  });
}

function keepRecentLines(recent: string[], chunk: Buffer, log: WriteStream): void {
  log.write(chunk);
  recent.push(...chunk.toString("utf8").trimEnd().split("\n"));
  if (recent.length > 200) recent.splice(0, recent.length - 200);
}

/** Sends `signal` to the process alone (not its group). */
export function signalProcess(
  target: Pick<DevClusterProcess, "pid" | "running">,
  signal: NodeJS.Signals,
): void {
  if (target.running()) process.kill(target.pid, signal);
}

/** Ends the process and everything still in its process group, without waiting. */
export function killProcessGroup(target: Pick<DevClusterProcess, "pid">): void {
  try {
    process.kill(-target.pid, "SIGKILL");
  } catch {
    // the group is already gone
  }
}

/** Resolves with the exit, or rejects if the process still runs after `timeoutMs`. */
export async function waitForExit(target: DevClusterProcess, timeoutMs: number): Promise<ProcessExit> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`dev-cluster up still runs ${timeoutMs} ms after it was told to stop`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([target.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether `dev-cluster up` accepts an option (for flags that may be added later). */
export function upAcceptsOption(option: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [devClusterMain, "up", "--help"], (error, stdout) => {
      if (error) reject(new Error("dev-cluster up --help failed", { cause: error }));
      else resolve(stdout.includes(option));
    });
  });
}

/**
 * The node bridge the test's cluster may use. Bridges are shared by name: a second dev cluster
 * on the same bridge removes the first one's pod networks when it starts, and the bridge itself
 * when it stops. A bridge of our own when `up` lets us name it; otherwise its fixed `kvts0`, but
 * only when no other dev cluster has it.
 */
export async function chooseNodeBridge(): Promise<{ bridge: string; upArgs: string[] }> {
  if (await upAcceptsOption("--bridge-name")) {
    const bridge = `kvte${randomBytes(4).toString("hex")}`;
    return { bridge, upArgs: ["--bridge-name", bridge] };
  }
  const bridge = "kvts0";
  if (linkNames().includes(bridge)) {
    throw new Error(
      `the bridge ${bridge} exists: another dev cluster runs on this machine (or a run left it; ` +
        `then \`ip link del ${bridge}\`), and dev-cluster up has no --bridge-name to keep them apart`,
    );
  }
  return { bridge, upArgs: [] };
}
