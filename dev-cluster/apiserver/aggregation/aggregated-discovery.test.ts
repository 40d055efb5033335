import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { builtinResourceTypes } from "../builtin/builtin-resource-types.js";
import type { JsonObject } from "../json.js";
import { ResourceRegistry } from "../registry/resource-registry.js";
import { ObjectStore } from "../storage/object-store.js";
import { AggregatedDiscovery, resourceDiscoveries } from "./aggregated-discovery.js";
import { API_SERVICES, ApiServiceCatalog } from "./api-services.js";

function apiService(
  group: string,
  version: string,
  groupPriorityMinimum: number,
  versionPriority: number,
): JsonObject {
  return {
    apiVersion: "apiregistration.k8s.io/v1",
    kind: "APIService",
    metadata: { name: `${version}.${group}` },
    spec: {
      group,
      version,
      groupPriorityMinimum,
      versionPriority,
      service: { namespace: "ns", name: "svc", port: 443 },
    },
  };
}

describe("aggregated discovery", () => {
  const store = new ObjectStore({ path: ":memory:" });
  after(() => store.close());

  test("an APIResourceList becomes discovery resources, subresources under their parent", () => {
    const resources = resourceDiscoveries([
      {
        name: "flunders",
        singularName: "flunder",
        namespaced: true,
        kind: "Flunder",
        verbs: ["get", "list"],
        shortNames: ["fl"],
      },
      { name: "flunders/status", namespaced: true, kind: "Flunder", verbs: ["get", "update"] },
      { name: "virtualmachineinstances/console", namespaced: true, kind: "", verbs: ["get"] },
    ]);
    assert.deepEqual(resources, [
      {
        resource: "flunders",
        responseKind: { group: "", version: "", kind: "Flunder" },
        scope: "Namespaced",
        singularResource: "flunder",
        verbs: ["get", "list"],
        shortNames: ["fl"],
        subresources: [
          {
            subresource: "status",
            responseKind: { group: "", version: "", kind: "Flunder" },
            verbs: ["get", "update"],
          },
        ],
      },
      {
        resource: "virtualmachineinstances",
        responseKind: {},
        scope: "Namespaced",
        verbs: [],
        subresources: [{ subresource: "console", responseKind: {}, verbs: ["get"] }],
      },
    ]);
  });

  test("aggregated groups follow the local ones, by group priority, versions by version priority", () => {
    const registry = new ResourceRegistry(builtinResourceTypes());
    const catalog = new ApiServiceCatalog(store);
    const discovery = new AggregatedDiscovery(catalog, registry);
    store.commit(
      [
        apiService("low.example.com", "v1", 100, 10),
        apiService("high.example.com", "v1", 2000, 10),
        apiService("high.example.com", "v2", 2000, 20),
        apiService("apps", "v9", 5000, 1),
      ].map((object) => ({
        type: "put" as const,
        key: { resource: API_SERVICES, namespace: "", name: String((object.metadata as JsonObject).name) },
        object,
      })),
    );
    discovery.record("v2.high.example.com", {
      kind: "APIResourceList",
      resources: [{ name: "things", namespaced: false, kind: "Thing", verbs: ["get"] }],
    });
    const list = discovery.extendGroupList({ kind: "APIGroupList", groups: [{ name: "apps" }] });
    const groups = list.groups as JsonObject[];
    assert.deepEqual(
      groups.map((g) => g.name),
      ["apps", "high.example.com", "low.example.com"],
      "a locally served group is not listed twice",
    );
    assert.deepEqual(groups[1]?.preferredVersion, { groupVersion: "high.example.com/v2", version: "v2" });
    const documents = discovery.extendGroupDiscoveryList({ kind: "APIGroupDiscoveryList", items: [] });
    const high = (documents.items as JsonObject[])[0] as JsonObject;
    const [v2 = {}, v1 = {}] = high.versions as JsonObject[];
    assert.equal(v2.freshness, "Current");
    assert.equal(((v2.resources as JsonObject[])[0] as JsonObject).resource, "things");
    assert.deepEqual(
      [v1.version, v1.resources, v1.freshness],
      ["v1", [], "Stale"],
      "a backend that never answered",
    );
    discovery.markStale("v2.high.example.com");
    const stale = (discovery.extendGroupDiscoveryList({ items: [] }).items as JsonObject[])[0] as JsonObject;
    assert.equal(((stale.versions as JsonObject[])[0] as JsonObject).freshness, "Stale");
    assert.equal(discovery.apiGroup("low.example.com")?.kind, "APIGroup");
    assert.equal(discovery.apiGroup("apps"), undefined);
    catalog.stop();
  });
});
