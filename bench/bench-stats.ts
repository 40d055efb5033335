import { percentile } from "./bench-report.js";

/** The middle value (the upper one of an even count, as percentile() picks). */
export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}
