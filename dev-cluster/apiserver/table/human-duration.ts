const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * apimachinery's duration.HumanDuration: about two significant figures (`90s`, `5m30s`, `3h`,
 * `2d3h`, `45d`, `3y24d`, `9y`). A duration more than a second in the past of zero (clock skew)
 * is `<invalid>`.
 */
export function humanDuration(milliseconds: number): string {
  const seconds = Math.trunc(milliseconds / SECOND);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(milliseconds / MINUTE);
  if (minutes < 10) {
    const rest = seconds % 60;
    return rest === 0 ? `${minutes}m` : `${minutes}m${rest}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(milliseconds / HOUR);
  if (hours < 8) {
    const rest = minutes % 60;
    return rest === 0 ? `${hours}h` : `${hours}h${rest}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const rest = hours % 24;
    return rest === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${rest}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = Math.trunc(hours / 24) % 365;
    const years = Math.trunc(hours / 24 / 365);
    return days === 0 ? `${years}y` : `${years}y${days}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/**
 * table.ConvertToHumanReadableDateType: the age of an RFC 3339 timestamp at `now`, `<unknown>`
 * for a missing one and `<invalid>` for one that does not parse.
 */
export function humanAge(timestamp: string | null | undefined, now: Date): string {
  if (timestamp === undefined || timestamp === null || timestamp === "" || timestamp === "null")
    return "<unknown>";
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(timestamp)) return "<invalid>";
  const time = Date.parse(timestamp);
  return Number.isNaN(time) ? "<invalid>" : humanDuration(now.getTime() - time);
}
