/**
 * One pino record (the JSON object pino writes) as a short line a person reads in a terminal:
 *
 *   14:03:07.123 INFO  virt-controller vmi default/vm-tiny: created the launcher pod pod=virt-launcher-vm-tiny-x2k
 *
 * Time of day (local), level, who (component, then controller or another part), the object,
 * the message, then the record's other fields as key=value. What only machines need (pid,
 * hostname, the reconcile id) is left out; an error's stack follows an error-level line.
 */
export type LogRecord = Record<string, unknown>;

export interface HumanLineOptions {
  /** The root logger's name, shown when a record carries no `component` (pino writes it as `name`). */
  component?: string | undefined;
}

const LEVELS: Readonly<Record<number, string>> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO",
  40: "WARN",
  50: "ERROR",
  60: "FATAL",
};
const ERROR_LEVEL = 50;

/** Fields naming the part of a component that speaks, in the order they are shown. */
const PARTS = ["controller", "informer", "runnable", "server"] as const;
/** Fields the line shows elsewhere or not at all. */
const SHOWN_APART = new Set([
  ...["level", "time", "msg", "pid", "hostname", "reconcileId"],
  ...["component", "namespace", "name", ...PARTS],
]);

export function humanLogLine(record: LogRecord, options: HumanLineOptions = {}): string {
  const head = [timeOfDay(record.time), levelLabel(record.level).padEnd(5), ...speakerOf(record, options)];
  const object = objectOf(record, options);
  const message = typeof record.msg === "string" ? record.msg : "";
  const said = object ? `${object}: ${message}` : message;
  const fields = Object.entries(record)
    .filter(([key, value]) => value !== undefined && !SHOWN_APART.has(key))
    .map(([key, value]) => `${key}=${fieldValue(key, value)}`);
  const line = [...head, said, ...fields].filter((part) => part !== "").join(" ");
  const stack = levelNumber(record.level) >= ERROR_LEVEL ? stackOf(record.err) : undefined;
  return stack ? `${line}\n${indent(stack)}` : line;
}

function timeOfDay(time: unknown): string {
  const date = new Date(typeof time === "number" || typeof time === "string" ? time : Number.NaN);
  if (Number.isNaN(date.getTime())) return "--:--:--.---";
  const two = (value: number) => String(value).padStart(2, "0");
  const millis = String(date.getMilliseconds()).padStart(3, "0");
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${millis}`;
}

function levelNumber(level: unknown): number {
  return typeof level === "number" ? level : 0;
}

function levelLabel(level: unknown): string {
  if (typeof level === "string") return level.toUpperCase();
  return LEVELS[levelNumber(level)] ?? `L${String(level)}`;
}

function speakerOf(record: LogRecord, options: HumanLineOptions): string[] {
  const component = typeof record.component === "string" ? record.component : options.component;
  const parts = PARTS.map((field) => record[field]).filter((value) => typeof value === "string");
  return [...(component ? [component] : []), ...(parts as string[])];
}

/**
 * `namespace/name` of the object a record is about. The root's own `name` (pino's name option)
 * is the component, not an object: with a namespace, or when it differs, `name` is the object's.
 */
function objectOf(record: LogRecord, options: HumanLineOptions): string | undefined {
  const name = objectName(record, options);
  const namespace = typeof record.namespace === "string" ? record.namespace : undefined;
  if (namespace && name) return `${namespace}/${name}`;
  return name ?? (namespace ? `${namespace}/` : undefined);
}

function objectName(record: LogRecord, options: HumanLineOptions): string | undefined {
  if (typeof record.name !== "string") return undefined;
  const isRootName = record.name === options.component && record.namespace === undefined;
  return isRootName ? undefined : record.name;
}

/** Strings as they are unless they need quotes; an error as its message; the rest as JSON. */
function fieldValue(key: string, value: unknown): string {
  if (key === "err" && isObject(value) && typeof value.message === "string")
    return JSON.stringify(value.message);
  if (typeof value === "string") return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

function stackOf(err: unknown): string | undefined {
  return isObject(err) && typeof err.stack === "string" ? err.stack : undefined;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
