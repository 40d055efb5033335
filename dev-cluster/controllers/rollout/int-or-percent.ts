import { TerminalError } from "../../../runtime/index.js";

/**
 * An IntOrString like maxSurge or maxUnavailable ("25%" or 2) as a count out of `total`
 * (intstr.GetScaledValueFromIntOrPercent). Percentages round up or down as the caller says.
 */
export function scaledValue(
  value: number | string | undefined,
  total: number,
  roundUp: boolean,
  fallback: number | string,
): number {
  const raw = value ?? fallback;
  if (typeof raw === "number") return raw;
  const match = /^(\d+)%$/.exec(raw);
  if (!match) {
    if (/^\d+$/.test(raw)) return Number(raw);
    throw new TerminalError(
      "InvalidValue",
      `invalid value for IntOrString: "${raw}" is neither a number nor a percentage`,
    );
  }
  const scaled = (Number(match[1]) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/**
 * maxSurge (rounded up) and maxUnavailable (rounded down) for `desired` replicas; when both come
 * to zero, one may be unavailable, or a rollout could never make progress (ResolveFenceposts).
 */
export function resolveFenceposts(
  maxSurge: number | string | undefined,
  maxUnavailable: number | string | undefined,
  desired: number,
): { surge: number; unavailable: number } {
  const surge = scaledValue(maxSurge, desired, true, "25%");
  const unavailable = scaledValue(maxUnavailable, desired, false, "25%");
  if (surge === 0 && unavailable === 0) return { surge, unavailable: 1 };
  return { surge, unavailable };
}
