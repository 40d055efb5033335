import type { JsonObject, JsonValue } from "../json.js";
import type { TableConvertor } from "../resource-type.js";
import { numberAt, objectAt, stringAt } from "./json-read.js";
import { column, nameColumn, nameOf, since, wideColumn } from "./table-format.js";

/**
 * `kubectl get events` (core/v1 and events.k8s.io/v1 print alike, as kube converts both to the
 * internal Event). kube puts Name last as a wide column; here it comes first, as every table's
 * first column is the name, but stays wide so the default output is LAST SEEN TYPE REASON OBJECT
 * MESSAGE.
 */

/** The fields the printer reads, under their core/v1 names. */
interface EventFields {
  firstTimestamp?: string;
  lastTimestamp?: string;
  eventTime?: string;
  count?: number;
  series?: JsonObject;
  involvedObject?: JsonObject;
  source?: JsonObject;
  reportingComponent?: string;
  reportingInstance?: string;
  message?: string;
}

function coreFields(event: JsonObject): EventFields {
  return fieldsFrom(event, {
    firstTimestamp: "firstTimestamp",
    lastTimestamp: "lastTimestamp",
    count: "count",
    involvedObject: "involvedObject",
    source: "source",
    reportingComponent: "reportingComponent",
    message: "message",
  });
}

function eventsV1Fields(event: JsonObject): EventFields {
  return fieldsFrom(event, {
    firstTimestamp: "deprecatedFirstTimestamp",
    lastTimestamp: "deprecatedLastTimestamp",
    count: "deprecatedCount",
    involvedObject: "regarding",
    source: "deprecatedSource",
    reportingComponent: "reportingController",
    message: "note",
  });
}

type Renames = Record<
  | "firstTimestamp"
  | "lastTimestamp"
  | "count"
  | "involvedObject"
  | "source"
  | "reportingComponent"
  | "message",
  string
>;

function fieldsFrom(event: JsonObject, names: Renames): EventFields {
  const text = (field: string): string | undefined => stringAt(event, field) || undefined;
  return {
    firstTimestamp: text(names.firstTimestamp),
    lastTimestamp: text(names.lastTimestamp),
    eventTime: text("eventTime"),
    count: numberAt(event, names.count),
    series: objectAt(event, "series"),
    involvedObject: objectAt(event, names.involvedObject),
    source: objectAt(event, names.source),
    reportingComponent: text(names.reportingComponent),
    reportingInstance: text("reportingInstance"),
    message: text(names.message),
  };
}

function eventCells(
  name: string,
  type: JsonValue | undefined,
  reason: JsonValue | undefined,
  fields: EventFields,
  now: Date,
): unknown[] {
  const firstSeen = fields.firstTimestamp ? since(fields.firstTimestamp, now) : since(fields.eventTime, now);
  let lastSeen = fields.lastTimestamp ? since(fields.lastTimestamp, now) : firstSeen;
  let count = fields.count || 1;
  if (fields.series) {
    lastSeen = since(stringAt(fields.series, "lastObservedTime"), now);
    count = numberAt(fields.series, "count") ?? 0;
  }
  const kind = (stringAt(fields.involvedObject, "kind") ?? "").toLowerCase();
  const objectName = stringAt(fields.involvedObject, "name") ?? "";
  const component = stringAt(fields.source, "component") || fields.reportingComponent || "";
  const instance = stringAt(fields.source, "host") || fields.reportingInstance || "";
  return [
    name,
    lastSeen,
    typeof type === "string" ? type : "",
    typeof reason === "string" ? reason : "",
    objectName === "" ? kind : `${kind}/${objectName}`,
    stringAt(fields.involvedObject, "fieldPath") ?? "",
    instance === "" ? component : `${component}, ${instance}`,
    (fields.message ?? "").trim(),
    firstSeen,
    count,
  ];
}

const columns = [
  { ...nameColumn, priority: 1 },
  column("Last Seen", "The time at which the most recent occurrence of this event was recorded."),
  column("Type", "Type of this event (Normal, Warning), new types could be added in the future"),
  column(
    "Reason",
    "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
  ),
  column("Object", "The object that this event is about."),
  wideColumn(
    "Subobject",
    "If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement.",
  ),
  wideColumn(
    "Source",
    "The component reporting this event. Should be a short machine understandable string.",
  ),
  column("Message", "A human-readable description of the status of this operation."),
  wideColumn(
    "First Seen",
    "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)",
  ),
  { ...wideColumn("Count", "The number of times this event has occurred."), type: "integer" as const },
];

export const coreEventTable: TableConvertor = {
  columns,
  cells: (event, now) => eventCells(nameOf(event), event.type, event.reason, coreFields(event), now),
};

export const eventsV1Table: TableConvertor = {
  columns,
  cells: (event, now) => eventCells(nameOf(event), event.type, event.reason, eventsV1Fields(event), now),
};
