import { type LevelWithSilentOrString, type Logger, pino } from "pino";
import { HumanLogStream, type LineSink } from "./human-log-stream.js";

/** A component's standard output, as far as logging cares: a terminal or not. */
export interface LogOutput extends LineSink {
  readonly isTTY?: boolean;
}

export interface ComponentLoggerOptions {
  level: LevelWithSilentOrString;
  /** pino's `name` (written into every JSON record); also the component shown on human lines. */
  name?: string;
  /** Default process.stdout. */
  output?: LogOutput;
}

/**
 * The root logger of a component's process: JSON lines, as log collectors (and the dev cluster's
 * node agent, which writes a component's stdout to its log file) expect; short human lines when
 * stdout is a terminal, where a person reads them (`npm start`, a component run by hand).
 */
export function componentLogger(options: ComponentLoggerOptions): Logger {
  const output = options.output ?? process.stdout;
  const loggerOptions = {
    level: options.level,
    ...(options.name !== undefined ? { name: options.name } : {}),
  };
  if (output.isTTY) return pino(loggerOptions, new HumanLogStream(output, { component: options.name }));
  // pino's own destination for stdout, exactly as before; another output (tests) is written to.
  return output === process.stdout ? pino(loggerOptions) : pino(loggerOptions, output);
}
