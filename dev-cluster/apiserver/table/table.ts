import { cloneJson, isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import type { TableConvertor } from "../resource-type.js";

export interface BuildTableOptions {
  /** What each row carries besides its cells (`?includeObject=`, Metadata by default upstream). */
  includeObject: "None" | "Metadata" | "Object";
  /** Watch events after the first one leave the column definitions out. */
  noHeaders?: boolean;
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
  /** apiVersion and kind of the objects, filled in when a row carries a whole object without them. */
  apiVersion: string;
  kind: string;
  /** The time ages are computed against. */
  now?: Date;
}

/**
 * A meta.k8s.io/v1 Table of `objects`, as kube-apiserver answers `Accept: application/json;as=Table;g=meta.k8s.io;v=v1`.
 * Rows carry a PartialObjectMetadata for `Metadata`, the object for `Object`, nothing for `None`.
 */
export function buildTable(
  convertor: TableConvertor,
  objects: JsonObject[],
  opts: BuildTableOptions,
): JsonObject {
  const now = opts.now ?? new Date();
  const table: JsonObject = { kind: "Table", apiVersion: "meta.k8s.io/v1", metadata: listMeta(opts) };
  if (opts.noHeaders !== true) {
    table.columnDefinitions = convertor.columns.map((column) => ({
      name: column.name,
      type: column.type,
      format: column.format,
      description: column.description,
      priority: column.priority,
    }));
  }
  table.rows = objects.map((object) => {
    const row: JsonObject = { cells: convertor.cells(object, now).map(asCell) };
    const carried = rowObject(object, opts);
    if (carried !== undefined) row.object = carried;
    return row;
  });
  return table;
}

function listMeta(opts: BuildTableOptions): JsonObject {
  const meta: JsonObject = {};
  if (opts.resourceVersion !== "") meta.resourceVersion = opts.resourceVersion;
  if (opts.continue !== undefined && opts.continue !== "") meta.continue = opts.continue;
  if (opts.remainingItemCount !== undefined) meta.remainingItemCount = opts.remainingItemCount;
  return meta;
}

function rowObject(object: JsonObject, opts: BuildTableOptions): JsonObject | undefined {
  if (opts.includeObject === "None") return undefined;
  if (opts.includeObject === "Metadata") {
    const metadata = isJsonObject(object.metadata) ? cloneJson(object.metadata) : {};
    return { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata };
  }
  const whole = cloneJson(object);
  if (typeof whole.apiVersion !== "string" || whole.apiVersion === "") whole.apiVersion = opts.apiVersion;
  if (typeof whole.kind !== "string" || whole.kind === "") whole.kind = opts.kind;
  return whole;
}

/** Cells are JSON: undefined becomes null, anything else not JSON-shaped goes through JSON. */
function asCell(cell: unknown): JsonValue {
  if (cell === undefined || cell === null) return null;
  if (typeof cell === "string" || typeof cell === "boolean") return cell;
  if (typeof cell === "number") return Number.isFinite(cell) ? cell : null;
  return JSON.parse(JSON.stringify(cell)) as JsonValue;
}
