import type { JsonObject } from "../json.js";
import type { ResourceType } from "../resource-type.js";
import {
  deleteOptionsSchemaName,
  patchSchemaName,
  scaleSchemaName,
  schemaRef,
  statusSchemaName,
} from "./meta-schemas.js";
import {
  deleteParameters,
  listParameters,
  nameParameter,
  namespaceParameter,
  patchParameters,
  prettyParameter,
  writeParameters,
} from "./parameters.js";

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

type Action = "get" | "list" | "post" | "put" | "patch" | "delete" | "deletecollection";

interface OperationSpec {
  action: Action;
  operationId: string;
  description: string;
  gvk: GroupVersionKind;
  parameters: readonly JsonObject[];
  requestBody?: JsonObject;
  responses: JsonObject;
}

/** Schema names of the kind a path serves: its object and list schemas. */
export interface KindSchemaNames {
  object: string;
  list: string;
}

const responseMediaTypes = ["application/json", "application/yaml"];

function responses(codes: Record<string, string>, schemaName: string): JsonObject {
  const result: JsonObject = {};
  for (const [code, description] of Object.entries(codes)) {
    const content: JsonObject = {};
    for (const mediaType of responseMediaTypes) content[mediaType] = { schema: schemaRef(schemaName) };
    result[code] = { description, content };
  }
  result["401"] = { description: "Unauthorized" };
  return result;
}

function bodyOf(schemaName: string, mediaTypes: readonly string[], required = true): JsonObject {
  const content: JsonObject = {};
  for (const mediaType of mediaTypes) content[mediaType] = { schema: schemaRef(schemaName) };
  return { content, required };
}

/** Strategic merge patch exists only for compiled-in kinds, as upstream. */
function patchMediaTypes(type: ResourceType): string[] {
  const types = [
    "application/apply-patch+yaml",
    "application/json-patch+json",
    "application/merge-patch+json",
  ];
  if (type.builtin) types.push("application/strategic-merge-patch+json");
  return types;
}

function operation(spec: OperationSpec): JsonObject {
  const op: JsonObject = {
    tags: [`${spec.gvk.group === "" ? "core" : spec.gvk.group}_${spec.gvk.version}`],
    description: spec.description,
    operationId: spec.operationId,
    parameters: spec.parameters.map((parameter) => ({ ...parameter })),
    responses: spec.responses,
    "x-kubernetes-action": spec.action,
    // An object here (the schemas carry an array): both kubectl explain and the field
    // validation check read it from operations.
    "x-kubernetes-group-version-kind": { ...spec.gvk },
  };
  if (spec.requestBody) op.requestBody = spec.requestBody;
  return op;
}

function camel(text: string): string {
  return text
    .split(/[.\-/]/)
    .filter((part) => part !== "")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

/** Upstream-style operation ids, e.g. `patchKubevirtExampleIoV1NamespacedVirtualMachineStatus`. */
function operationIdOf(verb: string, type: ResourceType, suffix = ""): string {
  const scope = type.namespaced && !suffix.endsWith("ForAllNamespaces") ? "Namespaced" : "";
  return `${verb}${camel(type.group === "" ? "core" : type.group)}${camel(type.version)}${scope}${type.kind}${suffix}`;
}

/** get, put and patch of an object, or of its subresource `sub` whose body is `schemaName` of kind `gvk`. */
function readWriteOperations(
  type: ResourceType,
  schemaName: string,
  gvk: GroupVersionKind,
  sub?: string,
): JsonObject {
  const suffix = sub === undefined ? "" : camel(sub);
  const target = `${sub === undefined ? "" : `${sub} of `}the specified ${type.kind}`;
  return {
    get: operation({
      action: "get",
      gvk,
      operationId: operationIdOf("read", type, suffix),
      parameters: [],
      description: `read ${target}`,
      responses: responses({ "200": "OK" }, schemaName),
    }),
    put: operation({
      action: "put",
      gvk,
      operationId: operationIdOf("replace", type, suffix),
      parameters: writeParameters,
      description: `replace ${target}`,
      requestBody: bodyOf(schemaName, ["*/*"]),
      responses: responses({ "200": "OK", "201": "Created" }, schemaName),
    }),
    patch: operation({
      action: "patch",
      gvk,
      operationId: operationIdOf("patch", type, suffix),
      parameters: patchParameters,
      description: `partially update ${target}`,
      requestBody: bodyOf(patchSchemaName, patchMediaTypes(type)),
      responses: responses({ "200": "OK", "201": "Created" }, schemaName),
    }),
  };
}

function itemOperations(type: ResourceType, names: KindSchemaNames, gvk: GroupVersionKind): JsonObject {
  return {
    ...readWriteOperations(type, names.object, gvk),
    delete: operation({
      action: "delete",
      gvk,
      operationId: operationIdOf("delete", type),
      parameters: deleteParameters,
      description: `delete the specified ${type.kind}`,
      requestBody: bodyOf(deleteOptionsSchemaName, ["*/*"], false),
      responses: responses({ "200": "OK", "202": "Accepted" }, statusSchemaName),
    }),
  };
}

function collectionOperations(type: ResourceType, names: KindSchemaNames, gvk: GroupVersionKind): JsonObject {
  return {
    get: operation({
      action: "list",
      gvk,
      operationId: operationIdOf("list", type),
      parameters: listParameters,
      description: `list or watch objects of kind ${type.kind}`,
      responses: responses({ "200": "OK" }, names.list),
    }),
    post: operation({
      action: "post",
      gvk,
      operationId: operationIdOf("create", type),
      parameters: writeParameters,
      description: `create a ${type.kind}`,
      requestBody: bodyOf(names.object, ["*/*"]),
      responses: responses({ "200": "OK", "201": "Created", "202": "Accepted" }, names.object),
    }),
    delete: operation({
      action: "deletecollection",
      gvk,
      operationId: operationIdOf("deletecollection", type),
      parameters: [...deleteParameters, ...listParameters],
      description: `delete collection of ${type.kind}`,
      requestBody: bodyOf(deleteOptionsSchemaName, ["*/*"], false),
      responses: responses({ "200": "OK" }, statusSchemaName),
    }),
  };
}

/**
 * The OpenAPI paths of one resource: item and collection paths, the all-namespaces list of a
 * namespaced resource, and the status and scale subresources. Connect-style subresources (log,
 * exec, ...) are not described, as kubectl needs nothing about them from OpenAPI.
 */
export function resourcePaths(type: ResourceType, names: KindSchemaNames): Record<string, JsonObject> {
  const gvk = { group: type.group, version: type.version, kind: type.kind };
  const root = type.group === "" ? `/api/${type.version}` : `/apis/${type.group}/${type.version}`;
  const collectionPath = `${type.namespaced ? `${root}/namespaces/{namespace}` : root}/${type.plural}`;
  const itemPath = `${collectionPath}/{name}`;
  const scopeParameters = type.namespaced ? [namespaceParameter, prettyParameter] : [prettyParameter];
  const itemParameters = [nameParameter, ...scopeParameters];
  if (type.verbs && !type.verbs.includes("get")) {
    // A create-only resource (SubjectAccessReview, ...): upstream describes just its POST.
    const { post } = collectionOperations(type, names, gvk);
    return { [collectionPath]: { post: post ?? null, parameters: scopeParameters } };
  }

  const paths: Record<string, JsonObject> = {
    [collectionPath]: { ...collectionOperations(type, names, gvk), parameters: scopeParameters },
    [itemPath]: { ...itemOperations(type, names, gvk), parameters: itemParameters },
  };
  if (type.namespaced) {
    const listAll = operation({
      action: "list",
      gvk,
      operationId: operationIdOf("list", type, "ForAllNamespaces"),
      parameters: listParameters,
      description: `list or watch objects of kind ${type.kind} in all namespaces`,
      responses: responses({ "200": "OK" }, names.list),
    });
    paths[`${root}/${type.plural}`] = { get: listAll, parameters: [prettyParameter] };
  }
  if (type.statusSubresource) {
    paths[`${itemPath}/status`] = {
      ...readWriteOperations(type, names.object, gvk, "status"),
      parameters: itemParameters,
    };
  }
  if (type.scaleSubresource) {
    const scaleGvk = { group: "autoscaling", version: "v1", kind: "Scale" };
    paths[`${itemPath}/scale`] = {
      ...readWriteOperations(type, scaleSchemaName, scaleGvk, "scale"),
      parameters: itemParameters,
    };
  }
  return paths;
}
