// Where the time of one piece of work goes: named steps in order, and every program it ran. The
// trace follows the work through awaits (AsyncLocalStorage), so code deep below (a command
// runner) records its spawns without a trace being passed down to it. Work outside a trace
// records nothing and costs nothing.
import { AsyncLocalStorage } from "node:async_hooks";
import { basename } from "node:path";

export interface TracedStep {
  readonly step: string;
  /** When it began, in ms after the trace began. */
  readonly atMs: number;
  readonly ms: number;
}

export interface TracedProgram {
  /**
   * The program and its first argument that is not an option, and for a wrapper (`nsenter … --
   * ip link …`) the program it runs: `qemu-img create`, `nsenter ip link`.
   */
  readonly program: string;
  /** In which step it ran (undefined: between steps). */
  readonly step: string | undefined;
  readonly ms: number;
}

/** What a trace logs: epoch ms of its start, its steps and the programs run. */
export interface StepTraceRecord {
  readonly startedAt: number;
  readonly totalMs: number;
  readonly steps: readonly TracedStep[];
  readonly programs: readonly TracedProgram[];
}

const active = new AsyncLocalStorage<{ trace: StepTrace; step: string | undefined }>();

export class StepTrace {
  readonly startedAt = Date.now();
  readonly #began = performance.now();
  readonly #steps: TracedStep[] = [];
  readonly #programs: TracedProgram[] = [];

  /** Runs `work` as this trace's step `name`: its time, and the programs it runs, are recorded. */
  async step<T>(name: string, work: () => Promise<T>): Promise<T> {
    const began = performance.now();
    try {
      return await active.run({ trace: this, step: name }, work);
    } finally {
      this.#steps.push({
        step: name,
        atMs: round(began - this.#began),
        ms: round(performance.now() - began),
      });
    }
  }

  record(): StepTraceRecord {
    return {
      startedAt: this.startedAt,
      totalMs: round(performance.now() - this.#began),
      steps: [...this.#steps],
      programs: [...this.#programs],
    };
  }

  addProgram(program: TracedProgram): void {
    this.#programs.push(program);
  }
}

/**
 * Measures one run of a program for the trace of the work it belongs to, if any: call when it
 * starts, and the returned function when it ended.
 */
export function traceProgram(command: string, args: readonly string[]): () => void {
  const current = active.getStore();
  if (current === undefined) return () => {};
  const began = performance.now();
  const program = describeProgram(command, args);
  return () =>
    current.trace.addProgram({ program, step: current.step, ms: round(performance.now() - began) });
}

/** Names a run without what differs between runs (paths, values set): `nsenter nft`, `sysctl`. */
function describeProgram(command: string, args: readonly string[]): string {
  const firstWord = (list: readonly string[]) =>
    list.find((arg) => !arg.startsWith("-") && !arg.includes("/") && !arg.includes("="));
  const wrapped = args.indexOf("--");
  const words =
    wrapped >= 0
      ? [basename(command), basename(args[wrapped + 1] ?? ""), firstWord(args.slice(wrapped + 2))]
      : [basename(command), firstWord(args)];
  return words.filter((word) => word !== undefined && word !== "").join(" ");
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
