import type { JsonObject } from "../json.js";

/**
 * Operation parameters, written inline in every operation: kubectl's field-validation check
 * (cli-runtime query_param_verifier_v3.go) reads the names of a PATCH operation's own parameters,
 * not $refs and not path-level ones.
 */
function queryParameter(
  name: string,
  description: string,
  type: "string" | "boolean" | "integer",
): JsonObject {
  return { name, in: "query", description, schema: { type, uniqueItems: true } };
}

function pathParameter(name: string, description: string): JsonObject {
  return { name, in: "path", description, required: true, schema: { type: "string", uniqueItems: true } };
}

export const nameParameter = pathParameter("name", "name of the object");
export const namespaceParameter = pathParameter(
  "namespace",
  "object name and auth scope, such as for teams and projects",
);
export const prettyParameter = queryParameter(
  "pretty",
  "If 'true', then the output is pretty printed.",
  "string",
);

const dryRun = queryParameter(
  "dryRun",
  "When present, indicates that modifications should not be persisted. Valid value: All.",
  "string",
);
const fieldManager = queryParameter(
  "fieldManager",
  "A name associated with the actor or entity that is making these changes.",
  "string",
);
const fieldValidation = queryParameter(
  "fieldValidation",
  "How to handle unknown or duplicate fields in the request body: Ignore, Warn (default) or Strict.",
  "string",
);
const force = queryParameter(
  "force",
  'Force is going to "force" Apply requests: re-acquire conflicting fields owned by other people.',
  "boolean",
);

/** For POST and PUT. */
export const writeParameters: readonly JsonObject[] = [dryRun, fieldManager, fieldValidation];
/** For PATCH: `fieldValidation` here is what makes kubectl validate server-side. */
export const patchParameters: readonly JsonObject[] = [dryRun, fieldManager, fieldValidation, force];

export const listParameters: readonly JsonObject[] = [
  queryParameter("allowWatchBookmarks", "Requests watch events with type BOOKMARK.", "boolean"),
  queryParameter("continue", "The continue token of a previous paged list.", "string"),
  queryParameter(
    "fieldSelector",
    "A selector to restrict the list of returned objects by their fields.",
    "string",
  ),
  queryParameter(
    "labelSelector",
    "A selector to restrict the list of returned objects by their labels.",
    "string",
  ),
  queryParameter("limit", "The maximum number of responses to return for a list call.", "integer"),
  queryParameter(
    "resourceVersion",
    "Sets a constraint on what resource versions a request may be served from.",
    "string",
  ),
  queryParameter("resourceVersionMatch", "How resourceVersion is applied to list calls.", "string"),
  queryParameter(
    "sendInitialEvents",
    "With watch=true, starts the watch stream with synthetic ADDED events.",
    "boolean",
  ),
  queryParameter("timeoutSeconds", "Timeout for the list/watch call.", "integer"),
  queryParameter(
    "watch",
    "Watch for changes to the described resources and return them as a stream.",
    "boolean",
  ),
];

export const deleteParameters: readonly JsonObject[] = [
  dryRun,
  queryParameter(
    "gracePeriodSeconds",
    "The duration in seconds before the object should be deleted.",
    "integer",
  ),
  queryParameter("orphanDependents", "Deprecated: use propagationPolicy.", "boolean"),
  queryParameter("propagationPolicy", "Whether and how garbage collection is performed.", "string"),
];
