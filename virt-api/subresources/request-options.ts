/**
 * The bodies of the PUT subresources, as KubeVirt's types.go defines them: StartOptions
 * `{paused, dryRun}`, StopOptions `{gracePeriod, dryRun}`, RestartOptions `{gracePeriodSeconds,
 * dryRun}`, Pause/UnpauseOptions `{dryRun}` (Add/RemoveVolumeOptions: volume-request-body.ts).
 * Bodies are YAML or JSON (KubeVirt decodes both); `dryRun` is `["All"]` in the body or
 * `?dryRun=All` in the query.
 */
import { parse as parseYaml } from "yaml";
import { badRequest } from "../status/status-error.js";

export interface StartOptions {
  readonly paused: boolean;
  readonly dryRun: boolean;
}

export interface StopOptions {
  /** Seconds the VMI gets to shut down, replacing its terminationGracePeriodSeconds. */
  readonly gracePeriod?: number;
  readonly dryRun: boolean;
}

export interface RestartOptions {
  /** Only 0 (a forced restart) is accepted, as in KubeVirt. */
  readonly gracePeriodSeconds?: number;
  readonly dryRun: boolean;
}

export interface DryRunOnly {
  readonly dryRun: boolean;
}

export type Query = Readonly<Record<string, string | string[] | undefined>>;

export function startOptionsOf(body: unknown, query: Query): StartOptions {
  const fields = fieldsOf(body, "StartOptions");
  // `paused` is KubeVirt's field; `startPaused` is accepted too, the name virtctl's flag suggests.
  return {
    paused:
      booleanField(fields, "paused", "StartOptions") || booleanField(fields, "startPaused", "StartOptions"),
    dryRun: dryRunOf(fields, query, "StartOptions"),
  };
}

export function stopOptionsOf(body: unknown, query: Query): StopOptions {
  const fields = fieldsOf(body, "StopOptions");
  const gracePeriod = integerField(fields, "gracePeriod", "StopOptions");
  return {
    ...(gracePeriod === undefined ? {} : { gracePeriod }),
    dryRun: dryRunOf(fields, query, "StopOptions"),
  };
}

export function restartOptionsOf(body: unknown, query: Query): RestartOptions {
  const fields = fieldsOf(body, "RestartOptions");
  const gracePeriodSeconds = integerField(fields, "gracePeriodSeconds", "RestartOptions");
  return {
    ...(gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds }),
    dryRun: dryRunOf(fields, query, "RestartOptions"),
  };
}

export function dryRunOnlyOf(body: unknown, query: Query, type: string): DryRunOnly {
  return { dryRun: dryRunOf(fieldsOf(body, type), query, type) };
}

/** A body's fields: YAML or JSON text, or what the server parsed; an empty body has none. */
export function fieldsOf(body: unknown, type: string): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  let parsed: unknown = body;
  if (typeof body === "string" || Buffer.isBuffer(body)) {
    const text = body.toString();
    if (text.trim() === "") return {};
    try {
      parsed = parseYaml(text);
    } catch (error) {
      throw badRequest(`unable to decode ${type}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== "object" || Array.isArray(parsed))
    throw badRequest(`unable to decode ${type}: not an object`);
  return parsed as Record<string, unknown>;
}

function booleanField(fields: Record<string, unknown>, name: string, type: string): boolean {
  const value = fields[name];
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean") throw badRequest(`unable to decode ${type}: ${name} must be a boolean`);
  return value;
}

function integerField(fields: Record<string, unknown>, name: string, type: string): number | undefined {
  const value = fields[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    throw badRequest(`unable to decode ${type}: ${name} must be an integer`);
  }
  return value;
}

/** `?dryRun=All`, or `dryRun: ["All"]` in the body. */
export function dryRunOf(fields: Record<string, unknown>, query: Query, type: string): boolean {
  const fromQuery = query.dryRun;
  const queryValues = Array.isArray(fromQuery) ? fromQuery : fromQuery === undefined ? [] : [fromQuery];
  if (queryValues.includes("All")) return true;
  const value = fields.dryRun;
  if (value === undefined || value === null) return false;
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value.includes("All");
  throw badRequest(`unable to decode ${type}: dryRun must be a list such as ["All"]`);
}
