// virtctl as a user runs it (`node dist/virtctl/main.js`), for the end-to-end tests and the console
// benchmark: one-shot commands, and long-lived ones (console, vnc) either on pipes or on a real
// pseudo-terminal made by util-linux `script`, whose pty puts virtctl's console in raw mode as a
// user's terminal would.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { parse, stringify } from "yaml";
import { ConsoleTranscript } from "../../libvirt/testing/console-transcript.js";

/** Ctrl+]: virtctl console's escape. */
export const CTRL_RIGHT_BRACKET = Buffer.from([0x1d]);

export interface VirtctlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface VirtctlExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Who virtctl talks to: a kubeconfig and a namespace (`--kubeconfig K -n NS`). */
export interface VirtctlTarget {
  readonly repoRoot: string;
  readonly kubeconfig: string;
  readonly namespace: string;
}

function virtctlArgv(target: VirtctlTarget, args: readonly string[]): string[] {
  const main = join(target.repoRoot, "dist", "virtctl", "main.js");
  return [main, "--kubeconfig", target.kubeconfig, "-n", target.namespace, ...args];
}

/** Runs a virtctl command to its end (killed after `timeoutMs`). */
export function runVirtctl(
  target: VirtctlTarget,
  args: readonly string[],
  timeoutMs = 60_000,
): Promise<VirtctlResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      virtctlArgv(target, args),
      { timeout: timeoutMs, cwd: target.repoRoot },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A single-quoted word for `script -c`'s shell. */
function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A long-lived virtctl (console, vnc) whose input the test writes and whose output it reads. */
export class VirtctlSession {
  /** What virtctl printed: its stdout on pipes; everything the terminal showed on a pty. */
  readonly output: ConsoleTranscript;
  /** Its stderr on pipes; on a pty the same transcript as `output` (a terminal has one screen). */
  readonly messages: ConsoleTranscript;
  /** The raw stdout stream (pipes) or terminal (pty), for tests that count bytes. */
  readonly stdout: Readable;
  readonly exited: Promise<VirtctlExit>;
  readonly #child: ChildProcess;
  #over = false;

  private constructor(child: ChildProcess, terminal: boolean) {
    this.#child = child;
    if (!child.stdout || !child.stderr || !child.stdin) throw new Error("virtctl was started without pipes");
    this.stdout = child.stdout;
    this.output = new ConsoleTranscript(child.stdout);
    this.messages = terminal ? this.output : new ConsoleTranscript(child.stderr);
    if (terminal) child.stderr.resume(); // `script` itself prints nothing there (-q)
    // A virtctl that ended may leave a write in flight: its EPIPE says nothing the exit does not.
    child.stdin.on("error", () => undefined);
    this.exited = new Promise((resolve) => {
      // "close", not "exit": by then everything it printed has been read.
      child.once("close", (code, signal) => {
        this.#over = true;
        resolve({ code, signal });
      });
    });
  }

  /**
   * Starts `virtctl ARGS`. With `terminal`, under `script -qfec` (a new pseudo-terminal whose
   * other end is this process's pipes; `-e` passes virtctl's exit status on); and there, with
   * `showTerminalAfter`, `stty -a` prints the terminal's settings once virtctl has ended, so a
   * test can see that it left the terminal as it found it.
   */
  static start(
    target: VirtctlTarget,
    args: readonly string[],
    options: { terminal: boolean; showTerminalAfter?: boolean },
  ): VirtctlSession {
    const argv = virtctlArgv(target, args);
    const virtctl = [process.execPath, ...argv].map(shellQuote).join(" ");
    const script = options.showTerminalAfter ? `${virtctl}; status=$?; stty -a; exit $status` : virtctl;
    const [command, commandArgs] = options.terminal
      ? ["script", ["-qfec", script, "/dev/null"]]
      : [process.execPath, argv];
    // A process group of its own: cleanup ends `script` and virtctl together.
    const child = spawn(command, commandArgs, { cwd: target.repoRoot, detached: true, stdio: "pipe" });
    return new VirtctlSession(child, options.terminal);
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  running(): boolean {
    return !this.#over;
  }

  /** Writes bytes as typed (Enter is "\r" on a console); resolves once they are handed to the pipe. */
  write(bytes: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#child.stdin?.write(bytes, (error) => (error ? reject(error) : resolve()));
    });
  }

  /** Types a line at the guest's shell. */
  type(line: string): Promise<void> {
    return this.write(`${line}\r`);
  }

  /** Presses Ctrl+]. */
  escape(): Promise<void> {
    return this.write(CTRL_RIGHT_BRACKET);
  }

  /** Sends `signal` to virtctl (on a pty, to `script` and virtctl: their process group). */
  signal(signal: NodeJS.Signals): void {
    const pid = this.#child.pid;
    if (pid === undefined || this.#over) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // ended meanwhile
    }
  }

  /** How it ended, or a rejection naming `what` after `timeoutMs`. */
  async exit(what: string, timeoutMs: number): Promise<VirtctlExit> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(new Error(`${what} did not end within ${timeoutMs} ms; it printed:\n${this.output.tail()}`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([this.exited, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends it for good (cleanup): SIGKILL to its process group. */
  kill(): void {
    this.signal("SIGKILL");
  }
}

interface KubeconfigFile {
  clusters: { name: string; cluster: Record<string, unknown> }[];
  contexts: { name: string; context: { cluster: string } }[];
  "current-context": string;
}

/** A kubeconfig for the same API server as `kubeconfig`, authenticating with a bearer token. */
export function writeTokenKubeconfig(kubeconfig: string, token: string, path: string, user: string): void {
  const source = parse(readFileSync(kubeconfig, "utf8")) as KubeconfigFile;
  const context = source.contexts.find((entry) => entry.name === source["current-context"]);
  const cluster = source.clusters.find((entry) => entry.name === context?.context.cluster);
  if (!cluster) throw new Error(`${kubeconfig} has no cluster for its current context`);
  const config = {
    apiVersion: "v1",
    kind: "Config",
    clusters: [cluster],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: user, context: { cluster: cluster.name, user } }],
    "current-context": user,
  };
  writeFileSync(path, stringify(config), { mode: 0o600 });
}
