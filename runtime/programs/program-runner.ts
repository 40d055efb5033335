// Runs short-lived programs (ip, nft, qemu-img, …) from a small helper process instead of from the
// component itself. Node forks the calling process to spawn one, and a fork copies the page
// tables of everything it has touched: from a component of 200 MB that costs ~10 ms of CPU a
// program, ~4 times what it costs from a helper of 40 MB, and a VM start runs ten. The helper is
// forked once, on first use, with the component's privileges and environment; it only spawns
// what it is asked to, no shell, and ends with its parent (its IPC channel closes).
import { type ChildProcess, fork } from "node:child_process";
import type { ProgramReply, ProgramRequest } from "./program-protocol.js";

export interface ProgramOptions {
  /** Written to its stdin (closed at once otherwise). */
  readonly input?: string;
  /** Its environment; the component's when absent. */
  readonly env?: NodeJS.ProcessEnv;
  /** Killed (SIGKILL) after this long; no limit when absent. */
  readonly timeoutMs?: number;
}

export interface ProgramResult {
  /** Its exit code; null when a signal ended it. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  /** Whether the timeout killed it. */
  readonly timedOut: boolean;
}

/** The program could not be started (`code`: ENOENT when it is not installed, EACCES, …). */
export class ProgramStartError extends Error {
  override readonly name = "ProgramStartError";

  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

interface Pending {
  resolve(result: ProgramResult): void;
  reject(error: Error): void;
}

export class ProgramRunner {
  static #shared: ProgramRunner | undefined;
  #helper: ChildProcess | undefined;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;

  /** The runner a process shares: one helper for all its callers. */
  static shared(): ProgramRunner {
    ProgramRunner.#shared ??= new ProgramRunner();
    return ProgramRunner.#shared;
  }

  run(command: string, args: readonly string[], options: ProgramOptions = {}): Promise<ProgramResult> {
    const helper = this.#helperProcess();
    const id = this.#nextId++;
    const request: ProgramRequest = {
      id,
      command,
      args: [...args],
      ...(options.input === undefined ? {} : { input: options.input }),
      ...(options.env === undefined ? {} : { env: { ...options.env } }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    };
    return new Promise<ProgramResult>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#refWhileBusy(helper);
      helper.send(request, (error) => {
        if (error)
          this.#settle(id, { id, ok: false, message: `cannot reach the program runner: ${error.message}` });
      });
    });
  }

  #helperProcess(): ChildProcess {
    if (this.#helper?.connected) return this.#helper;
    const helper = fork(new URL("./program-runner-child.js", import.meta.url), [], {
      // Nothing of the component's own flags (--inspect, --expose-gc …): the helper needs none.
      execArgv: ["--max-old-space-size=64"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      serialization: "advanced",
    });
    helper.on("message", (reply: ProgramReply) => this.#settle(reply.id, reply));
    const lost = (why: string) => {
      if (this.#helper === helper) this.#helper = undefined;
      for (const id of [...this.#pending.keys()]) this.#settle(id, { id, ok: false, message: why });
    };
    helper.on("exit", (code, signal) => lost(`the program runner exited (${signal ?? code})`));
    helper.on("error", (error) => lost(`the program runner failed: ${error.message}`));
    this.#helper = helper;
    return helper;
  }

  #settle(id: number, reply: ProgramReply): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return;
    this.#pending.delete(id);
    if (this.#pending.size === 0 && this.#helper) this.#unrefWhenIdle(this.#helper);
    if (reply.ok) {
      const { code, signal, stdout, stderr, timedOut } = reply;
      pending.resolve({ code, signal, stdout: Buffer.from(stdout), stderr: Buffer.from(stderr), timedOut });
    } else if (reply.startError) {
      pending.reject(new ProgramStartError(reply.message, reply.startError));
    } else {
      pending.reject(new Error(reply.message));
    }
  }

  // An idle helper keeps no component alive, nor a test runner waiting.
  #refWhileBusy(helper: ChildProcess): void {
    helper.ref();
    helper.channel?.ref();
  }

  #unrefWhenIdle(helper: ChildProcess): void {
    helper.unref();
    helper.channel?.unref();
  }
}
