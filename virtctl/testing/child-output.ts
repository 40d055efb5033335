/** Test support: what a child process writes, collected, and waited for with a deadline. */
import type { ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";

export class CollectedOutput {
  #text = "";
  readonly #waiters = new Set<() => void>();

  constructor(stream: Readable) {
    stream.on("data", (chunk: Buffer) => {
      this.#text += chunk.toString("utf8");
      for (const waiter of [...this.#waiters]) waiter();
    });
  }

  get text(): string {
    return this.#text;
  }

  /** Resolves with everything so far once `pattern` appears; rejects after `timeoutMs`. */
  waitFor(pattern: RegExp | string, timeoutMs = 20_000): Promise<string> {
    const found = () =>
      typeof pattern === "string" ? this.#text.includes(pattern) : pattern.test(this.#text);
    if (found()) return Promise.resolve(this.#text);
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!found()) return;
        this.#waiters.delete(check);
        clearTimeout(timer);
        resolve(this.#text);
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for ${String(pattern)}; got: ${JSON.stringify(this.#text)}`,
          ),
        );
      }, timeoutMs);
      this.#waiters.add(check);
    });
  }
}

/** The child's exit code (or the signal that ended it), with a deadline. */
export function exitOf(
  child: ChildProcess,
  timeoutMs = 30_000,
): Promise<{ code: number | null; signal: string | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the child did not exit within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}
