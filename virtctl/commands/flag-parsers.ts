/** Parsers for commander options: a bad value is refused with the flag's own message. */
import { InvalidArgumentError } from "commander";

export function integer(value: string): number {
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isSafeInteger(parsed)) throw new InvalidArgumentError("not an integer");
  return parsed;
}

export function nonNegativeInteger(value: string): number {
  const parsed = integer(value);
  if (parsed < 0) throw new InvalidArgumentError("must be 0 or more");
  return parsed;
}

export function port(value: string): number {
  const parsed = integer(value);
  if (parsed < 0 || parsed > 65535) throw new InvalidArgumentError("a port is an integer from 0 to 65535");
  return parsed;
}

/** Collects a repeatable option's values in order. */
export function collect(value: string, previous: readonly string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** A duration in minutes (fractions allowed: 0.5 is thirty seconds). */
export function minutes(value: string): number {
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isFinite(parsed) || parsed < 0) {
    throw new InvalidArgumentError("a number of minutes, 0 or more");
  }
  return parsed;
}
