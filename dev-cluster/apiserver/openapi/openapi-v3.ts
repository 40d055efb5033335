import { createHash } from "node:crypto";
import { cloneJson, isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import type { ResourceType } from "../resource-type.js";
import {
  listMetaSchemaName,
  objectMetaSchemaName,
  refProperty,
  schemaRef,
  sharedSchemas,
} from "./meta-schemas.js";
import { type KindSchemaNames, resourcePaths } from "./resource-paths.js";

export interface OpenApiDocument {
  document: JsonObject;
  /** Upper-case hex SHA-512 of the serialized document: the `hash` of its serverRelativeURL. */
  hash: string;
}

/** `api/v1` for the core group, `apis/<group>/<version>` otherwise: the keys of the /openapi/v3 index. */
export function openApiGroupVersionPath(group: string, version: string): string {
  return group === "" ? `api/${version}` : `apis/${group}/${version}`;
}

/**
 * Schema name prefix of a group. Kubernetes groups follow upstream (`io.k8s.api.core`,
 * `io.k8s.api.apps`), others are the reversed group (`kubevirt.io` → `io.kubevirt`). kubectl finds
 * schemas by their x-kubernetes-group-version-kind, so the name only needs to be unique.
 */
function schemaNamePrefix(group: string): string {
  if (group === "") return "io.k8s.api.core";
  if (!group.includes(".") || group.endsWith(".k8s.io")) return `io.k8s.api.${group.split(".")[0]}`;
  return group.split(".").reverse().join(".");
}

function schemaNamesOf(type: ResourceType): KindSchemaNames {
  const object = `${schemaNamePrefix(type.group)}.${type.version}.${type.kind}`;
  return { object, list: `${schemaNamePrefix(type.group)}.${type.version}.${type.listKind}` };
}

const typeMetaDescriptions = {
  apiVersion: "APIVersion defines the versioned schema of this representation of an object.",
  kind: "Kind is a string value representing the REST resource this object represents.",
};

/** The kind's schema with standard apiVersion/kind/metadata properties and its GVK (an array). */
function kindSchema(type: ResourceType): JsonObject {
  const schema = cloneJson(type.openApiSchema);
  const properties: JsonObject = isJsonObject(schema.properties) ? schema.properties : {};
  for (const [name, description] of Object.entries(typeMetaDescriptions)) {
    const existing = properties[name];
    properties[name] = isJsonObject(existing)
      ? { description, ...existing }
      : { type: "string", description };
  }
  // As upstream does for CRDs: whatever the type says about metadata, clients see ObjectMeta.
  properties.metadata = refProperty(objectMetaSchemaName, "Standard object's metadata.", { default: {} });
  schema.properties = properties;
  schema["x-kubernetes-group-version-kind"] = [{ group: type.group, version: type.version, kind: type.kind }];
  return schema;
}

function listSchema(type: ResourceType, names: KindSchemaNames): JsonObject {
  return {
    type: "object",
    description: `${type.listKind} is a list of ${type.kind}.`,
    required: ["items"],
    properties: {
      apiVersion: { type: "string", description: typeMetaDescriptions.apiVersion },
      items: { type: "array", description: `List of ${type.plural}.`, items: schemaRef(names.object) },
      kind: { type: "string", description: typeMetaDescriptions.kind },
      metadata: refProperty(listMetaSchemaName, "Standard list metadata.", { default: {} }),
    },
    "x-kubernetes-group-version-kind": [{ group: type.group, version: type.version, kind: type.listKind }],
  };
}

/** Names of the schemas a value refers to with `#/components/schemas/<name>`. */
function referencedSchemaNames(value: JsonValue, found: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) referencedSchemaNames(item, found);
  } else if (isJsonObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string") found.add(child.replace("#/components/schemas/", ""));
      else referencedSchemaNames(child, found);
    }
  }
}

/** Adds the shared schemas that `schemas` and `paths` reach, transitively. */
function addReferencedSharedSchemas(schemas: JsonObject, paths: JsonObject): void {
  const pending = new Set<string>();
  referencedSchemaNames(paths, pending);
  referencedSchemaNames(schemas, pending);
  for (const name of pending) {
    const shared = sharedSchemas[name];
    if (schemas[name] !== undefined || shared === undefined) continue;
    schemas[name] = cloneJson(shared);
    referencedSchemaNames(shared, pending); // a Set iterates over entries added while iterating
  }
}

function buildDocument(members: readonly ResourceType[]): JsonObject {
  const schemas: JsonObject = {};
  const paths: JsonObject = {};
  for (const type of members) {
    const names = schemaNamesOf(type);
    schemas[names.object] = kindSchema(type);
    schemas[names.list] = listSchema(type, names);
    Object.assign(paths, resourcePaths(type, names));
  }
  addReferencedSharedSchemas(schemas, paths);
  const sortedSchemas: JsonObject = {};
  for (const name of Object.keys(schemas).sort()) sortedSchemas[name] = schemas[name] ?? null;
  return {
    openapi: "3.0.0",
    info: { title: "Kubernetes", version: "unversioned" },
    paths,
    components: {
      schemas: sortedSchemas,
      securitySchemes: {
        BearerToken: {
          type: "apiKey",
          description: "Bearer Token authentication",
          name: "authorization",
          in: "header",
        },
      },
    },
    security: [{ BearerToken: [] }],
  };
}

interface CachedDocument {
  members: readonly ResourceType[];
  result: OpenApiDocument;
}

/**
 * Built documents, keyed by the first resource type of their group-version. ResourceType objects
 * are treated as immutable: a changed schema arrives as a new object, which misses the cache.
 */
const documentCache = new WeakMap<ResourceType, CachedDocument>();

function sameMembers(a: readonly ResourceType[], b: readonly ResourceType[]): boolean {
  return a.length === b.length && a.every((type, i) => type === b[i]);
}

function documentFor(members: readonly ResourceType[]): OpenApiDocument {
  const [first] = members;
  const cached = first ? documentCache.get(first) : undefined;
  if (cached && sameMembers(cached.members, members)) return cached.result;
  const document = buildDocument(members);
  const hash = createHash("sha512").update(JSON.stringify(document)).digest("hex").toUpperCase();
  const result = { document, hash };
  if (first) documentCache.set(first, { members: [...members], result });
  return result;
}

function membersOf(types: readonly ResourceType[], groupVersionPath: string): ResourceType[] {
  return types.filter((type) => openApiGroupVersionPath(type.group, type.version) === groupVersionPath);
}

/**
 * The OpenAPI v3 document of one group-version (`api/v1` or `apis/<group>/<version>`), or
 * undefined when nothing is served there. The returned document is shared: do not mutate it.
 */
export function openApiDocument(
  types: readonly ResourceType[],
  groupVersionPath: string,
): OpenApiDocument | undefined {
  const members = membersOf(types, groupVersionPath);
  return members.length === 0 ? undefined : documentFor(members);
}

/** The body of `GET /openapi/v3`: one entry per group-version, its URL carrying the document hash. */
export function openApiIndex(types: readonly ResourceType[]): JsonObject {
  const paths: JsonObject = {};
  const groupVersionPaths = [
    ...new Set(types.map((type) => openApiGroupVersionPath(type.group, type.version))),
  ];
  for (const path of groupVersionPaths.sort()) {
    const { hash } = documentFor(membersOf(types, path));
    paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${hash}` };
  }
  return { paths };
}
