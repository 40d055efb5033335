import type { ServerResponse } from "node:http";
import { ApiError, badRequest } from "../api-error.js";
import type { JsonObject } from "../json.js";
import { meta, nameOf, namespaceOf } from "../objects/object-meta.js";
import type { ObjectService } from "../objects/object-service.js";
import type { RequestTarget } from "../objects/request-target.js";
import { groupVersion, storageResource } from "../registry/resource-registry.js";
import type { ChangeEvent } from "../storage/watch-history.js";
import { buildTable } from "../table/table.js";
import type { EventDecoder } from "./event-decoder.js";
import { includeObjectPolicy, objectFilter, wantsTable } from "./list-query.js";
import { asApiError } from "./responses.js";

export interface WatchRequest {
  target: RequestTarget;
  query: URLSearchParams;
  accept: string | undefined;
}

/** A watcher whose socket holds more than this is too slow: it is cut off and re-watches from its last resourceVersion. */
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;
const BOOKMARK_INTERVAL_MS = 30_000;

/**
 * Checks a watch request and returns what streams it: watch events, one JSON object per line,
 * until the client goes away or `timeoutSeconds` pass. Headers are flushed at once: kubectl's
 * wait depends on it. Bad parameters throw here, before anything is written.
 */
export function prepareWatch(
  service: ObjectService,
  decoder: EventDecoder,
  request: WatchRequest,
): (response: ServerResponse) => void {
  const { type, namespace, namespaced } = request.target;
  const { query } = request;
  const filter = objectFilter(type, query);
  const asTable = wantsTable(request.accept);
  const includeObject = includeObjectPolicy(query);
  const bookmarks = query.get("allowWatchBookmarks") === "true";
  const resource = storageResource(type);
  const fromText = query.get("resourceVersion") ?? "";
  if (fromText !== "" && !/^\d+$/.test(fromText)) throw badRequest(`invalid resource version: ${fromText}`);
  const from = fromText === "" || fromText === "0" ? undefined : Number(fromText);
  if (from !== undefined) checkNotFromTheFuture(from, service.store.revision());
  includeObjectPolicy(query);
  return (response) => stream(response);

  function stream(response: ServerResponse): void {
    response.writeHead(200, {
      "Content-Type": "application/json",
      "Cache-Control": "no-cache, private",
      "Transfer-Encoding": "chunked",
    });
    response.flushHeaders();
    let headerSent = false;
    let lastRevision = from ?? service.store.revision();
    const matching = new Set<string>();

    const write = (eventType: string, object: JsonObject): void => {
      let payload: JsonObject = object;
      if (asTable && eventType !== "BOOKMARK" && eventType !== "ERROR") {
        payload = buildTable(type.table, [object], {
          includeObject,
          resourceVersion: String(meta(object).resourceVersion ?? ""),
          apiVersion: groupVersion(type),
          kind: type.kind,
          now: service.now(),
          noHeaders: headerSent,
        });
        headerSent = true;
      }
      send(`${JSON.stringify({ type: eventType, object: payload })}\n`);
    };
    const send = (line: string): void => {
      response.write(line);
      if (response.writableLength > MAX_BUFFERED_BYTES) response.destroy();
    };

    const onChange = (event: ChangeEvent): void => {
      if (event.resource !== resource || (namespaced && event.namespace !== namespace)) return;
      lastRevision = event.rv;
      const object = decoder.object(event, type);
      const key = `${event.namespace}/${event.name}`;
      const matches = event.type !== "DELETED" && filter(object);
      let eventType: string | undefined;
      if (matches) {
        eventType = event.type !== "ADDED" && matching.has(key) ? "MODIFIED" : "ADDED";
        matching.add(key);
      } else if (matching.delete(key) || (event.type === "DELETED" && filter(object))) {
        eventType = "DELETED";
      }
      if (eventType === undefined) return;
      if (asTable) write(eventType, object);
      else send(decoder.line(event, type, eventType));
    };

    let unsubscribe: () => void = () => {};
    try {
      const current = service.list(type, namespaced ? namespace : undefined).items.filter(filter);
      for (const object of current) matching.add(`${namespaceOf(object)}/${nameOf(object)}`);
      if (from === undefined) {
        for (const object of current) write("ADDED", object);
        lastRevision = service.store.revision();
        if (bookmarks && query.get("sendInitialEvents") === "true") {
          write("BOOKMARK", bookmark(request, lastRevision, true));
        }
      }
      unsubscribe = service.store.watch(from, onChange);
    } catch (error) {
      const apiError = asApiError(error);
      write("ERROR", apiError.toStatus());
      response.end();
      if (!(apiError instanceof ApiError) || apiError.code >= 500) throw error;
      return;
    }

    const timers: NodeJS.Timeout[] = [];
    const timeoutSeconds = Number(query.get("timeoutSeconds") ?? "0");
    if (timeoutSeconds > 0) timers.push(setTimeout(() => response.end(), timeoutSeconds * 1000));
    if (bookmarks) {
      timers.push(
        setInterval(() => write("BOOKMARK", bookmark(request, lastRevision, false)), BOOKMARK_INTERVAL_MS),
      );
    }
    const stop = (): void => {
      unsubscribe();
      for (const timer of timers) clearTimeout(timer);
    };
    response.on("close", stop);
    response.on("error", stop);
  }
}

/**
 * A resourceVersion newer than the server's means the client saw a store this server no longer
 * has (e.g. an in-memory server restarted): answer as kube-apiserver does, so the client relists
 * rather than trusting a cache that may hold objects that are gone.
 */
export function checkNotFromTheFuture(requested: number, revision: number): void {
  if (requested <= revision) return;
  throw new ApiError(504, "Timeout", `Too large resource version: ${requested}, current: ${revision}`, {
    causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }],
    retryAfterSeconds: 1,
  });
}

function bookmark(request: WatchRequest, revision: number, initialEventsEnd: boolean): JsonObject {
  const metadata: JsonObject = { resourceVersion: String(revision) };
  if (initialEventsEnd) metadata.annotations = { "k8s.io/initial-events-end": "true" };
  return { kind: request.target.type.kind, apiVersion: groupVersion(request.target.type), metadata };
}
