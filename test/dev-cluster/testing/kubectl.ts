import assert from "node:assert/strict";
import { execFile } from "node:child_process";

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The machine's real kubectl, pointed at one kubeconfig (read again on every call: the port changes on restart). */
export class Kubectl {
  readonly #kubeconfig: string;
  readonly #cacheDir: string;

  constructor(kubeconfig: string, cacheDir: string) {
    this.#kubeconfig = kubeconfig;
    this.#cacheDir = cacheDir;
  }

  run(args: readonly string[], options: { input?: string; timeoutMs?: number } = {}): Promise<KubectlResult> {
    return new Promise((resolve) => {
      const child = execFile(
        "kubectl",
        ["--kubeconfig", this.#kubeconfig, "--cache-dir", this.#cacheDir, ...args],
        { timeout: options.timeoutMs ?? 60_000, env: { ...process.env, KUBECONFIG: this.#kubeconfig } },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
      child.stdin?.end(options.input);
    });
  }

  /** Runs kubectl and fails the test unless it exits 0; returns its stdout. */
  async ok(args: readonly string[], options: { input?: string; timeoutMs?: number } = {}): Promise<string> {
    const result = await this.run(args, options);
    assert.equal(result.code, 0, `kubectl ${args.join(" ")} failed: ${result.stderr || result.stdout}`);
    return result.stdout;
  }

  /** `kubectl get ... -o json`, parsed. */
  async json<T>(args: readonly string[]): Promise<T> {
    return JSON.parse(await this.ok(["get", ...args, "-o", "json"])) as T;
  }

  apply(manifest: string): Promise<string> {
    return this.ok(["apply", "-f", "-"], { input: manifest });
  }
}
