/**
 * Timestamps as the API carries them. Conditions use whole seconds (metav1.Time); phase
 * transitions keep milliseconds, which RFC 3339 allows and every client parses, so that
 * start-up latencies below a second stay measurable.
 */

/** RFC 3339 in whole seconds, e.g. `2024-05-01T10:00:00Z`. */
export function wireTime(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

/** RFC 3339 with milliseconds, e.g. `2024-05-01T10:00:00.123Z`. */
export function preciseTime(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

/** Milliseconds since the epoch of an RFC 3339 time; undefined when absent or unparsable. */
export function parseTime(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : parsed;
}
