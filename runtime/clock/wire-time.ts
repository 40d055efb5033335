/**
 * Timestamps as the Kubernetes API carries them: RFC 3339 in UTC. metav1.Time is written in
 * whole seconds, metav1.MicroTime with six fractional digits; RFC 3339 also allows milliseconds,
 * which every client parses, for fields where a latency below a second must stay measurable.
 */

/** metav1.Time: whole seconds, e.g. `2024-05-01T10:00:00Z` (the fraction is dropped, not rounded). */
export function wireTime(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

/** RFC 3339 with milliseconds, e.g. `2024-05-01T10:00:00.123Z`. */
export function wireTimeMillis(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

/** metav1.MicroTime: six fractional digits, e.g. `2024-05-01T10:00:00.123000Z`. */
export function microTime(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

/** Milliseconds since the epoch of an RFC 3339 time; undefined when absent or unparsable. */
export function parseWireTime(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : parsed;
}
