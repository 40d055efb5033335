import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { builtinResourceTypes } from "../builtin/builtin-resource-types.js";
import type { JsonObject } from "../json.js";
import { ObjectService } from "../objects/object-service.js";
import { ResourceRegistry } from "../registry/resource-registry.js";
import type { ResourceType } from "../resource-type.js";
import { ObjectStore } from "../storage/object-store.js";
import { ServiceResolutionError, ServiceResolver } from "./service-resolver.js";

const store = new ObjectStore({ path: ":memory:" });
const registry = new ResourceRegistry(builtinResourceTypes());
const service = new ObjectService({ store, registry, now: () => new Date() });
const resolver = new ServiceResolver(service);

function create(plural: string, object: JsonObject): void {
  service.create(registry.find("", "v1", plural) as ResourceType, "default", object, {
    fieldManager: "test",
  });
}
service.create(
  registry.find("", "v1", "namespaces") as ResourceType,
  "",
  { metadata: { name: "default" } },
  { fieldManager: "test" },
);

function failure(name: string, port = 443): ServiceResolutionError {
  try {
    resolver.resolve({ namespace: "default", name, port });
  } catch (error) {
    assert.ok(error instanceof ServiceResolutionError);
    return error;
  }
  assert.fail(`${name} resolved`);
}

describe("ServiceResolver", () => {
  after(() => store.close());

  test("a Service resolves through its port's name to a ready address of its Endpoints", () => {
    create("services", {
      metadata: { name: "api" },
      spec: {
        ports: [
          { name: "metrics", port: 9090 },
          { name: "https", port: 443, targetPort: 8443 },
        ],
      },
    });
    create("endpoints", {
      metadata: { name: "api" },
      subsets: [
        { addresses: [{ ip: "10.0.0.1" }], ports: [{ name: "metrics", port: 9090 }] },
        {
          addresses: [{ ip: "10.0.0.2" }],
          notReadyAddresses: [{ ip: "10.0.0.3" }],
          ports: [{ name: "https", port: 8443 }],
        },
      ],
    });
    for (let i = 0; i < 10; i++) {
      assert.deepEqual(resolver.resolve({ namespace: "default", name: "api", port: 443 }), {
        host: "10.0.0.2",
        port: 8443,
      });
    }
  });

  test("each way a Service cannot be reached has kube-aggregator's reason and message", () => {
    const missing = failure("nothing");
    assert.deepEqual(
      [missing.reason, missing.message],
      ["ServiceNotFound", 'service/nothing in "default" is not present'],
    );
    const port = failure("api", 8080);
    assert.deepEqual(
      [port.reason, port.message],
      ["ServicePortError", 'service/api in "default" is not listening on port 8080'],
    );
    create("services", { metadata: { name: "bare" }, spec: { ports: [{ port: 443 }] } });
    const endpoints = failure("bare");
    assert.deepEqual(
      [endpoints.reason, endpoints.message],
      ["EndpointsNotFound", 'cannot find endpoints for service/bare in "default"'],
    );
    create("endpoints", {
      metadata: { name: "bare" },
      subsets: [{ notReadyAddresses: [{ ip: "10.0.0.4" }], ports: [{ port: 443 }] }],
    });
    const ready = failure("bare");
    assert.deepEqual(
      [ready.reason, ready.message],
      ["MissingEndpoints", 'endpoints for service/bare in "default" have no addresses with port name ""'],
    );
  });
});
