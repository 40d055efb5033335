import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ExternalDiscovery } from "../aggregation/aggregated-discovery.js";
import { ApiError } from "../api-error.js";
import {
  aggregatedDiscovery,
  aggregatedDiscoveryContentTypeFor,
  negotiateAggregatedDiscovery,
} from "../discovery/aggregated-discovery.js";
import { apiGroup, apiGroupList, apiResourceList, apiVersions } from "../discovery/legacy-discovery.js";
import type { JsonObject } from "../json.js";
import { openApiDocument, openApiIndex } from "../openapi/openapi-v3.js";
import type { ResourceRegistry } from "../registry/resource-registry.js";
import { sendJson } from "./responses.js";

/** The version kubectl's dispatcher reads to choose which kubectl to run: it must say 1.32. */
export const SERVER_VERSION: JsonObject = {
  major: "1",
  minor: "32",
  gitVersion: "v1.32.0-kubevirt-ts-dev",
  gitCommit: "0000000000000000000000000000000000000000",
  gitTreeState: "clean",
  buildDate: "2026-01-01T00:00:00Z",
  goVersion: "go1.23.0",
  compiler: "gc",
  platform: "linux/amd64",
};

function notFound(): ApiError {
  return new ApiError(404, "NotFound", "the server could not find the requested resource");
}

/** /version, discovery (aggregated and legacy, with the groups of `external` servers under /apis) and OpenAPI v3. */
export function registerDiscoveryRoutes(
  app: FastifyInstance,
  registry: ResourceRegistry,
  external?: ExternalDiscovery,
): void {
  const rootDiscovery = (root: "api" | "apis") => (request: FastifyRequest, reply: FastifyReply) => {
    const withExternal = root === "apis" && external !== undefined;
    const aggregated = negotiateAggregatedDiscovery(request.headers.accept);
    if (aggregated) {
      const document = aggregatedDiscovery(registry.all(), root, aggregated);
      return reply
        .code(200)
        .type(aggregatedDiscoveryContentTypeFor(aggregated))
        .send(JSON.stringify(withExternal ? external.extendGroupDiscoveryList(document) : document));
    }
    const host = request.headers.host ?? "127.0.0.1";
    if (root === "api") return sendJson(reply, 200, apiVersions(host));
    const groups = apiGroupList(registry.all());
    return sendJson(reply, 200, withExternal ? external.extendGroupList(groups) : groups);
  };
  app.get("/version", (_request, reply) => sendJson(reply, 200, SERVER_VERSION));
  app.get("/api", rootDiscovery("api"));
  app.get("/apis", rootDiscovery("apis"));
  app.get("/api/v1", (_request, reply) => sendJson(reply, 200, resourceListOrThrow(registry, "v1")));
  app.get<{ Params: { group: string } }>("/apis/:group", (request, reply) => {
    const group = apiGroup(registry.all(), request.params.group);
    if (!group) throw notFound();
    return sendJson(reply, 200, group);
  });
  app.get<{ Params: { group: string; version: string } }>("/apis/:group/:version", (request, reply) =>
    sendJson(reply, 200, resourceListOrThrow(registry, `${request.params.group}/${request.params.version}`)),
  );
  app.get("/openapi/v3", (_request, reply) => sendJson(reply, 200, openApiIndex(registry.all())));
  app.get("/openapi/v3/*", (request, reply) => {
    const path = request.url.split("?", 1)[0]?.replace(/^\/openapi\/v3\//, "") ?? "";
    const document = openApiDocument(registry.all(), path);
    if (!document) throw notFound();
    const requested = new URLSearchParams(request.url.split("?", 2)[1] ?? "").get("hash");
    // kubectl caches a document whose hash is unchanged; say so, as kube-apiserver does.
    if (requested === document.hash) reply.header("Cache-Control", "public, immutable");
    else reply.header("Cache-Control", "no-cache, private");
    reply.header("ETag", `"${document.hash}"`);
    return sendJson(reply, 200, document.document);
  });
}

function resourceListOrThrow(registry: ResourceRegistry, groupVersion: string): JsonObject {
  const list = apiResourceList(registry.all(), groupVersion);
  if (!list) throw notFound();
  return list;
}
