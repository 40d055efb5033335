import { appendFileSync, type FSWatcher, readFileSync, statSync, watch } from "node:fs";
import type { Clock } from "../../../runtime/index.js";
import { logStampsPath } from "./log-paths.js";

/** The log had reached `size` bytes at `time` (epoch ms). */
export interface LogStamp {
  size: number;
  time: number;
}

export function readLogStamps(logPath: string): LogStamp[] {
  let text: string;
  try {
    text = readFileSync(logStampsPath(logPath), "utf8");
  } catch {
    return [];
  }
  const stamps: LogStamp[] = [];
  for (const line of text.split("\n")) {
    const [size, time] = line.split(" ").map(Number);
    if (Number.isFinite(size) && Number.isFinite(time)) stamps.push({ size: size ?? 0, time: time ?? 0 });
  }
  return stamps;
}

/** The time of the bytes ending at `offset`: the first stamp that covers them, or undefined. */
export function timeAtOffset(stamps: readonly LogStamp[], offset: number): number | undefined {
  let low = 0;
  let high = stamps.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((stamps[middle]?.size ?? 0) >= offset) high = middle;
    else low = middle + 1;
  }
  return stamps[low]?.time;
}

/**
 * Timestamps for a log the process writes straight to a file (no pipe through the agent, so
 * that output survives the agent): the agent watches the file and notes when it grew. A line
 * gets the time its bytes were first seen — exact to the watch's latency while the agent runs,
 * the agent's restart time for lines written while no agent ran.
 */
export class LogStamper {
  readonly #logPath: string;
  readonly #clock: Clock;
  #watcher: FSWatcher | undefined;
  #stampedSize: number;
  #pending: (() => void) | undefined;

  constructor(logPath: string, clock: Clock) {
    this.#logPath = logPath;
    this.#clock = clock;
    this.#stampedSize = readLogStamps(logPath).at(-1)?.size ?? 0;
  }

  start(): void {
    this.stamp();
    try {
      this.#watcher = watch(this.#logPath, { persistent: false }, () => this.#schedule());
      this.#watcher.on("error", () => this.#watcher?.close());
    } catch {
      // No watch (the file went away): stamps come only from stamp() calls.
    }
  }

  /** Notes the current size if it grew. */
  stamp(): void {
    let size: number;
    try {
      size = statSync(this.#logPath).size;
    } catch {
      return;
    }
    if (size <= this.#stampedSize) return;
    this.#stampedSize = size;
    appendFileSync(logStampsPath(this.#logPath), `${size} ${this.#clock.now()}\n`);
  }

  stop(): void {
    this.#pending?.();
    this.#watcher?.close();
    this.#watcher = undefined;
    this.stamp();
  }

  #schedule(): void {
    if (this.#pending) return;
    // Many writes in a burst make one stamp.
    this.#pending = this.#clock.schedule(() => {
      this.#pending = undefined;
      this.stamp();
    }, 20);
  }
}
