import { wireTime } from "../../../runtime/clock/wire-time.js";
import type { JsonObject, JsonValue } from "../json.js";
import type { TableColumn, TableConvertor } from "../resource-type.js";
import { humanDuration } from "../table/human-duration.js";
import { objectsAt, stringAt } from "./json-read.js";

/** Column and cell helpers shared by the printers of kubernetes/pkg/printers/internalversion. */

export const nameColumn: TableColumn = {
  name: "Name",
  type: "string",
  format: "name",
  description:
    "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Cannot be updated.",
  priority: 0,
};

const creationDescription =
  "CreationTimestamp is a timestamp representing the server time when this object was created. Populated by the system. Read-only. Null for lists.";

export const ageColumn: TableColumn = {
  name: "Age",
  type: "string",
  format: "",
  description: creationDescription,
  priority: 0,
};

export function column(name: string, description: string, options: Partial<TableColumn> = {}): TableColumn {
  return { name, type: "string", format: "", description, priority: 0, ...options };
}

/** A column kubectl shows only with `-o wide`. */
export function wideColumn(name: string, description: string): TableColumn {
  return column(name, description, { priority: 1 });
}

export function nameOf(object: JsonObject): string {
  return stringAt(object, "metadata", "name") ?? "";
}

/** translateTimestampSince: the human age of a timestamp, `<unknown>` when unset. */
export function since(timestamp: string | undefined, now: Date): string {
  const time = timestamp ? Date.parse(timestamp) : Number.NaN;
  if (Number.isNaN(time)) return "<unknown>";
  return humanDuration(now.getTime() - time);
}

export function age(object: JsonObject, now: Date): string {
  return since(stringAt(object, "metadata", "creationTimestamp"), now);
}

/** The RFC 3339 creation time, as the `Created At` columns print it. */
export function createdAt(object: JsonObject): string {
  const time = Date.parse(stringAt(object, "metadata", "creationTimestamp") ?? "");
  return Number.isNaN(time) ? "" : wireTime(time);
}

/** Joins at most `max` items, then ` + N more...` (the endpoints printers). */
export function listWithMore(items: string[], max: number, empty: string): string {
  if (items.length === 0) return empty;
  const shown = items.slice(0, max).join(",");
  return items.length > max ? `${shown} + ${items.length - max} more...` : shown;
}

/** The Containers and Images wide columns of workload printers. */
export function containerNamesAndImages(spec: JsonValue | undefined): [string, string] {
  const containers = objectsAt(spec, "containers");
  return [
    containers.map((c) => stringAt(c, "name") ?? "").join(","),
    containers.map((c) => stringAt(c, "image") ?? "").join(","),
  ];
}

/** The table of kinds without a printer of their own (kube's default table convertor). */
export const createdAtTable: TableConvertor = {
  columns: [nameColumn, column("Created At", creationDescription, { type: "date" })],
  cells: (object) => [nameOf(object), createdAt(object)],
};

export const nameAgeTable: TableConvertor = {
  columns: [nameColumn, ageColumn],
  cells: (object, now) => [nameOf(object), age(object, now)],
};
