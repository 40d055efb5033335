// `npm start -- --real-kubernetes` as a child process, for the end-to-end test and the install
// benchmark: started on a data directory, ready once it writes `<data dir>/ready`, stopped as a
// user stops it (Ctrl+C: SIGINT) and waited for.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { pollUntil } from "./poll.js";

export interface RealKubernetesProcess {
  readonly dataDir: string;
  readonly kubeconfig: string;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves with its exit code once it has ended. */
  readonly exited: Promise<number | null>;
  /** SIGINT, then waits up to `timeoutMs` (SIGKILL after that); resolves with the exit code. */
  stop(timeoutMs?: number): Promise<number | null | "killed">;
}

export async function startRealKubernetes(options: {
  root: string;
  dataDir: string;
  timeoutMs: number;
  /** Build Kubernetes from Debian's source when no binaries are found. */
  buildKubernetes?: boolean;
}): Promise<RealKubernetesProcess> {
  const kubeconfig = join(options.dataDir, "admin.kubeconfig");
  await rm(join(options.dataDir, "ready"), { force: true });
  const child: ChildProcess = spawn(
    process.execPath,
    [
      join(options.root, "scripts", "start.mjs"),
      "--real-kubernetes",
      ...["--data-dir", options.dataDir, "--kubeconfig", kubeconfig],
      ...(options.buildKubernetes ? ["--build-kubernetes"] : []),
    ],
    { cwd: options.root, stdio: ["ignore", "pipe", "pipe"] },
  );
  let printed = "";
  const collect = (chunk: Buffer) => {
    printed += chunk.toString("utf8");
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  let ended = false;
  const exited = new Promise<number | null>((resolveExit) =>
    child.once("exit", (code) => {
      ended = true;
      resolveExit(code);
    }),
  );
  const handle: RealKubernetesProcess = {
    dataDir: options.dataDir,
    kubeconfig,
    output: () => printed,
    exited,
    async stop(timeoutMs = 240_000) {
      if (ended) return exited;
      child.kill("SIGINT");
      const late = new Promise<"late">((resolveLate) => setTimeout(() => resolveLate("late"), timeoutMs));
      const how = await Promise.race([exited, late]);
      if (how !== "late") return how;
      child.kill("SIGKILL");
      await exited;
      return "killed";
    },
  };
  try {
    await pollUntil(
      "npm start -- --real-kubernetes to report kubevirt-ts Available",
      () => {
        if (ended) throw new Error(`npm start -- --real-kubernetes ended early:\n${printed.slice(-4000)}`);
        return existsSync(join(options.dataDir, "ready")) ? true : undefined;
      },
      { timeoutMs: options.timeoutMs, intervalMs: 1_000, lastSeen: () => printed.slice(-2000) },
    );
  } catch (error) {
    await handle.stop();
    throw error;
  }
  return handle;
}
