/**
 * The cluster's daemons as children of `npm start -- --real-kubernetes`: each started through
 * `setpriv --pdeathsig SIGTERM` (so it ends with its parent even after a kill -9), its output
 * appended to its own log file, and considered up only once its readiness check passes.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export interface ProcessSpec {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** Resolves true once the daemon serves; polled until `readyTimeoutMs`. */
  readonly ready: () => Promise<boolean>;
  readonly readyTimeoutMs?: number;
  readonly env?: Readonly<Record<string, string>>;
}

export interface SupervisedProcess {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it is gone. */
  stop(graceMs?: number): Promise<void>;
  /** Rejects if it exits before stop() is called. */
  readonly unexpectedExit: Promise<never>;
}

export class ProcessStartError extends Error {
  override readonly name = "ProcessStartError";
}

export async function startSupervised(spec: ProcessSpec, logsDir: string): Promise<SupervisedProcess> {
  await mkdir(logsDir, { recursive: true });
  const logFile = join(logsDir, `${spec.name}.log`);
  const log = createWriteStream(logFile, { flags: "a" });
  const child = spawn("setpriv", ["--pdeathsig", "SIGTERM", "--", spec.command, ...spec.args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...spec.env },
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  let stopping = false;
  const exited = new Promise<string>((resolveExit) => {
    child.once("exit", (code, signal) => resolveExit(`exited with ${signal ?? code}`));
    child.once("error", (error) => resolveExit(`could not start: ${error.message}`));
  });
  const unexpectedExit = exited.then(async (how) => {
    if (stopping) return new Promise<never>(() => {});
    throw new ProcessStartError(`${spec.name} ${how}; its log: ${logFile}\n${await tail(logFile)}`);
  });
  unexpectedExit.catch(() => {});
  const deadline = Date.now() + (spec.readyTimeoutMs ?? 60_000);
  let running = true;
  void exited.then(() => {
    running = false;
  });
  while (running && Date.now() < deadline) {
    if (await spec.ready().catch(() => false)) {
      return {
        name: spec.name,
        pid: child.pid ?? 0,
        logFile,
        unexpectedExit,
        stop: (graceMs = 10_000) => {
          stopping = true;
          return stopChild(child, exited, graceMs).finally(() => log.end());
        },
      };
    }
    await sleep(250);
  }
  stopping = true;
  if (running) await stopChild(child, exited, 2_000);
  log.end();
  const why = running ? "did not become ready in time" : await exited;
  throw new ProcessStartError(`${spec.name} ${why}; its log: ${logFile}\n${await tail(logFile)}`);
}

async function stopChild(child: ChildProcess, exited: Promise<string>, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const killer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(killer);
}

async function tail(path: string): Promise<string> {
  const text = await readFile(path, "utf8").catch(() => "");
  return text.trim().split("\n").slice(-8).join("\n");
}
