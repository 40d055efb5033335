/**
 * Parsers for commander option values: a bad value is refused with a message commander prints
 * after the flag's name (`option '--port <port>' argument '99999' is invalid. a port is ...`).
 */
import { InvalidArgumentError } from "commander";
import { pino } from "pino";

/** A TCP port; 0 asks the system for any free one. A blank value is refused, not read as 0. */
export function parsePort(value: string): number {
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isInteger(parsed) || parsed < 0 || parsed > 65535) {
    throw new InvalidArgumentError("a port is an integer from 0 to 65535");
  }
  return parsed;
}

/** A positive duration in seconds (fractions allowed: 0.5 is half a second). */
export function parseSeconds(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new InvalidArgumentError("a positive number of seconds");
  return parsed;
}

const LOG_LEVELS = [...Object.keys(pino.levels.values), "silent"];

/** A pino level: refused here rather than by pino once the component starts. */
export function parseLogLevel(value: string): string {
  if (!LOG_LEVELS.includes(value)) throw new InvalidArgumentError(`a log level: ${LOG_LEVELS.join(", ")}`);
  return value;
}
