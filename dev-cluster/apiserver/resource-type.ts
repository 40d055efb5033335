import type { StatusCause } from "./api-error.js";
import type { JsonObject } from "./json.js";

/**
 * How a list field merges, for strategic merge patch and server-side apply. `map` lists merge
 * their items by the key fields; `set` lists hold unique primitives; `atomic` lists are replaced
 * whole.
 */
export type ListSemantics = { type: "atomic" } | { type: "set" } | { type: "map"; keys: string[] };

/** How a field of an object behaves under strategic merge patch and server-side apply. */
export interface FieldSemantics {
  /** For list fields: how the list merges. Undefined means atomic. */
  list?: ListSemantics;
  /** For map fields: `atomic` maps are replaced whole (`x-kubernetes-map-type: atomic`). */
  map?: "granular" | "atomic";
  /** `patchStrategy: retainKeys` (e.g. a pod's volumes[] items). */
  retainKeys?: boolean;
}

/**
 * Looks up the merge semantics of the field at `path` (property names from the object's root;
 * list items are not part of the path, so `["spec", "containers", "ports"]` is the ports of any
 * container).
 */
export type FieldSemanticsLookup = (path: readonly string[]) => FieldSemantics | undefined;

export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** One column of a server-side Table (meta.k8s.io/v1 TableColumnDefinition). */
export interface TableColumn {
  name: string;
  type: "integer" | "number" | "string" | "boolean" | "date";
  format: string;
  description: string;
  priority: number;
}

/** Turns objects of one resource into Table rows. `cells` excludes nothing: one cell per column, Name first. */
export interface TableConvertor {
  columns: TableColumn[];
  cells(object: JsonObject, now: Date): unknown[];
}

/**
 * Everything the generic REST machinery needs to know about one resource (one group, version
 * and plural). Built-in kinds and custom resources both become one of these; the handlers know
 * nothing else about a kind.
 */
export interface ResourceType {
  group: string;
  version: string;
  kind: string;
  listKind: string;
  /** Plural resource name, the URL segment. */
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  /** True for kinds compiled into the server (strategic merge patch allowed, kind defaulted on POST). */
  builtin: boolean;
  /** When true, `/status` is a subresource: writes to the main resource keep the old status and vice versa. */
  statusSubresource: boolean;
  /**
   * With a status subresource, a create normally drops the status the client sent; a Node's
   * registration carries its capacity and conditions, so its status is kept.
   */
  keepsStatusOnCreate?: boolean;
  scaleSubresource?: ScaleSubresource;
  /** Other subresource names served for this resource (e.g. `binding`, `log`), for discovery. */
  otherSubresources: string[];
  /**
   * The verbs the resource answers, as discovery lists them; undefined means all of them. A
   * create-only resource (`["create"]`, e.g. SubjectAccessReview) stores nothing: its POST is
   * answered by a handler of its own.
   */
  verbs?: readonly string[];

  /** Applies defaults in place (request decoding and reads from storage). */
  applyDefaults(object: JsonObject): void;
  /**
   * Removes fields the schema does not know, in place. Returns the dotted paths of what was
   * removed (for fieldValidation Warn / Strict).
   */
  prune(object: JsonObject): string[];
  /** Validates a whole object after defaulting; `old` is the stored object on updates. */
  validate(object: JsonObject, old: JsonObject | undefined): StatusCause[];
  /** Validates only the status part (writes to the status subresource). */
  validateStatus(object: JsonObject, old: JsonObject): StatusCause[];
  /** The values field selectors may match on, besides metadata.name and metadata.namespace. */
  selectableFields(object: JsonObject): Record<string, string>;
  table: TableConvertor;
  /** Merge semantics of list and map fields, for strategic merge patch and server-side apply. */
  fieldSemantics: FieldSemanticsLookup;
  /** The OpenAPI v3 schema of the kind (components.schemas entry, without the GVK extension). */
  openApiSchema: JsonObject;
}
