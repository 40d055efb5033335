import { type HumanLineOptions, humanLogLine, type LogRecord } from "./human-log-line.js";

/** Where human lines go: a terminal (process.stdout) or, in tests, anything with `write`. */
export interface LineSink {
  write(text: string): unknown;
}

/**
 * A pino destination that turns each JSON line pino writes into a human line (human-log-line.ts).
 * A line that is not a JSON object (never from pino) passes through unchanged rather than being lost.
 */
export class HumanLogStream {
  readonly #sink: LineSink;
  readonly #options: HumanLineOptions;

  constructor(sink: LineSink, options: HumanLineOptions = {}) {
    this.#sink = sink;
    this.#options = options;
  }

  write(jsonLine: string): void {
    this.#sink.write(`${this.#format(jsonLine)}\n`);
  }

  #format(jsonLine: string): string {
    const text = jsonLine.trimEnd();
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      return text;
    }
    return typeof record === "object" && record !== null && !Array.isArray(record)
      ? humanLogLine(record as LogRecord, this.#options)
      : text;
  }
}
