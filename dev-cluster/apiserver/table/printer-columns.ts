import { isJsonObject, type JsonValue } from "../json.js";
import type { TableColumn, TableConvertor } from "../resource-type.js";
import { goJsonText, goPrintText } from "./go-text.js";
import { humanAge } from "./human-duration.js";
import { kubeJsonPathResults } from "./kube-jsonpath.js";

/** metav1.ObjectMeta's documentation of `name`, the description of every table's Name column. */
export const NAME_DESCRIPTION =
  "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";

/** metav1.ObjectMeta's documentation of `creationTimestamp`, the description of the default Age column. */
export const CREATION_TIMESTAMP_DESCRIPTION =
  "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

export const NAME_COLUMN: TableColumn = {
  name: "Name",
  type: "string",
  format: "name",
  description: NAME_DESCRIPTION,
  priority: 0,
};

const COLUMN_TYPES = new Set<TableColumn["type"]>(["integer", "number", "string", "boolean", "date"]);

interface PrinterColumn {
  column: TableColumn;
  jsonPath: string;
}

function textField(value: JsonValue | undefined): string {
  return typeof value === "string" ? value : "";
}

function printerColumn(definition: JsonValue): PrinterColumn | undefined {
  if (!isJsonObject(definition)) return undefined;
  const type = textField(definition.type) as TableColumn["type"];
  const jsonPath = textField(definition.jsonPath);
  if (!COLUMN_TYPES.has(type) || jsonPath === "") return undefined;
  const description = textField(definition.description);
  const column: TableColumn = {
    name: textField(definition.name),
    type,
    format: textField(definition.format),
    description:
      description === ""
        ? `Custom resource definition column (in JSONPath format): ${jsonPath}`
        : description,
    priority: typeof definition.priority === "number" ? definition.priority : 0,
  };
  return { column, jsonPath };
}

/** With no printer columns, a custom resource shows its age (serveDefaultColumnsIfEmpty). */
const AGE_COLUMN: JsonValue = {
  name: "Age",
  type: "date",
  description: CREATION_TIMESTAMP_DESCRIPTION,
  jsonPath: ".metadata.creationTimestamp",
};

/**
 * The table convertor of a CRD version (apiextensions' tableconvertor): Name first, then one
 * column per `additionalPrinterColumns` entry. A cell is the first value the column's JSONPath
 * finds; a value of the wrong type for the column is null, dates show as ages, and string
 * columns print anything, objects and lists as JSON.
 */
export function printerColumnsConvertor(definitions: readonly JsonValue[]): TableConvertor {
  const declared = definitions.length > 0 ? definitions : [AGE_COLUMN];
  const columns = declared
    .map(printerColumn)
    .filter((column): column is PrinterColumn => column !== undefined);
  return {
    columns: [NAME_COLUMN, ...columns.map(({ column }) => column)],
    cells(object, now) {
      const metadata = isJsonObject(object.metadata) ? object.metadata : {};
      const name = typeof metadata.name === "string" ? metadata.name : "";
      return [
        name,
        ...columns.map(({ column, jsonPath }) =>
          cellOf(column.type, kubeJsonPathResults(jsonPath, object)[0], now),
        ),
      ];
    },
  };
}

/** tableconvertor.cellForJSONValue, with string columns printed the way client-go's jsonpath prints. */
export function cellOf(type: TableColumn["type"], value: JsonValue | undefined, now: Date): JsonValue {
  if (value === undefined || value === null) return null;
  switch (type) {
    case "string":
      return typeof value === "object" ? goJsonText(value) : goPrintText(value);
    case "integer":
      return typeof value === "number" ? Math.trunc(value) : null;
    case "number":
      return typeof value === "number" ? value : null;
    case "boolean":
      return typeof value === "boolean" ? value : null;
    case "date":
      return typeof value === "string" ? humanAge(value, now) : null;
  }
}
