// Test support: virt-handler as its own process (the compiled main.js), as a node runs it, so that
// tests can kill -9 it under running VMs.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export interface HandlerProcess {
  readonly child: ChildProcess;
  /** Resolves with the exit code (null after a signal). */
  readonly exited: Promise<number | null>;
  /** Everything it logged so far (pino JSON lines). */
  output(): string;
  /** Resolves once a log line contains `text`. */
  waitForLog(text: string, timeoutMs: number): Promise<void>;
}

export function spawnHandler(args: readonly string[]): HandlerProcess {
  const main = fileURLToPath(new URL("../main.js", import.meta.url));
  const child = spawn(process.execPath, [main, ...args], {
    env: { ...process.env, UV_THREADPOOL_SIZE: "8" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer): void => {
    text += chunk.toString("utf8");
    for (const listener of [...listeners]) listener();
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    exited,
    output: () => text,
    waitForLog: (wanted, timeoutMs) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (!text.includes(wanted)) return;
          clearTimeout(timer);
          listeners.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(
            new Error(`virt-handler did not log "${wanted}" within ${timeoutMs} ms:\n${text.slice(-3000)}`),
          );
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
  };
}
