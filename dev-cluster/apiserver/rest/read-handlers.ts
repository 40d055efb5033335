import type { JsonObject } from "../json.js";
import type { ObjectService } from "../objects/object-service.js";
import type { RequestTarget } from "../objects/request-target.js";
import { groupVersion } from "../registry/resource-registry.js";
import { buildTable } from "../table/table.js";
import {
  continueAfter,
  includeObjectPolicy,
  objectFilter,
  pageBounds,
  paginate,
  wantsTable,
} from "./list-query.js";

export interface ReadRequest {
  target: RequestTarget;
  query: URLSearchParams;
  accept: string | undefined;
}

function tableOf(
  service: ObjectService,
  request: ReadRequest,
  objects: JsonObject[],
  revision: string,
  continueToken?: string,
): JsonObject {
  const { type } = request.target;
  return buildTable(type.table, objects, {
    includeObject: includeObjectPolicy(request.query),
    resourceVersion: revision,
    ...(continueToken ? { continue: continueToken } : {}),
    apiVersion: groupVersion(type),
    kind: type.kind,
    now: service.now(),
  });
}

/** GET of one object (or of its status subresource, which is the same object). */
export function getObject(service: ObjectService, request: ReadRequest): JsonObject {
  const { type, namespace, name } = request.target;
  const object = service.get(type, namespace, name ?? "");
  if (!wantsTable(request.accept)) return object;
  return tableOf(
    service,
    request,
    [object],
    String(object.metadata && (object.metadata as JsonObject).resourceVersion),
  );
}

/** GET of a collection: selectors, paging, and a Table when kubectl asks for one. */
export function listObjects(service: ObjectService, request: ReadRequest): JsonObject {
  const { type, namespace, namespaced } = request.target;
  const scope = namespaced ? namespace : undefined;
  const { query } = request;
  const selective = Boolean(query.get("labelSelector") || query.get("fieldSelector"));
  const { start, limit } = pageBounds(query);
  let page: JsonObject[];
  let continueToken: string | undefined;
  let remaining: number | undefined;
  let revision: number;
  if (!selective && limit > 0) {
    // Pages of an unfiltered list read only their own objects (informers and kubectl page by 500).
    const result = service.listPage(type, scope, start, limit);
    ({ items: page, revision } = result);
    continueToken = continueAfter(page[page.length - 1], result.remaining, revision);
    if (continueToken) remaining = result.remaining;
  } else {
    const listed = service.list(type, scope);
    revision = listed.revision;
    ({ page, continueToken, remaining } = paginate(
      listed.items.filter(objectFilter(type, query)),
      query,
      revision,
    ));
  }
  if (wantsTable(request.accept)) return tableOf(service, request, page, String(revision), continueToken);
  const metadata: JsonObject = { resourceVersion: String(revision) };
  if (continueToken) metadata.continue = continueToken;
  if (remaining !== undefined) metadata.remainingItemCount = remaining;
  return { kind: type.listKind, apiVersion: groupVersion(type), metadata, items: page };
}
