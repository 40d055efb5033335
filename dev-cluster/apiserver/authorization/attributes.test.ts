import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type AuthorizationAttributes, requestAttributes } from "./attributes.js";

const user = { username: "alice", uid: "1", groups: ["system:authenticated"] };

type Expected = Partial<Omit<AuthorizationAttributes, "user">>;

/** [method, url, the attributes that differ from an empty non-resource request's] */
const cases: [string, string, Expected][] = [
  ["GET", "/api/v1/namespaces/default/pods", { verb: "list", namespace: "default", resource: "pods" }],
  [
    "GET",
    "/api/v1/namespaces/default/pods?watch=true",
    { verb: "watch", namespace: "default", resource: "pods" },
  ],
  [
    "GET",
    "/api/v1/namespaces/default/pods?watch=1",
    { verb: "watch", namespace: "default", resource: "pods" },
  ],
  [
    "GET",
    "/api/v1/namespaces/default/pods?watch=false",
    { verb: "list", namespace: "default", resource: "pods" },
  ],
  [
    "GET",
    "/api/v1/namespaces/default/pods?watch=0",
    { verb: "list", namespace: "default", resource: "pods" },
  ],
  [
    "GET",
    "/api/v1/namespaces/default/pods?watch=true&fieldSelector=metadata.name%3Dweb",
    { verb: "watch", namespace: "default", resource: "pods", name: "web" },
  ],
  [
    "GET",
    "/api/v1/namespaces/default/pods?fieldSelector=metadata.name==web,status.phase=Running",
    { verb: "list", namespace: "default", resource: "pods", name: "web" },
  ],
  [
    "GET",
    "/api/v1/namespaces/default/pods?fieldSelector=metadata.name!=web",
    { verb: "list", namespace: "default", resource: "pods" },
  ],
  [
    "GET",
    "/api/v1/namespaces/default/pods/web",
    { verb: "get", namespace: "default", resource: "pods", name: "web" },
  ],
  [
    "GET",
    "/api/v1/namespaces/default/pods/web?watch=true",
    { verb: "get", namespace: "default", resource: "pods", name: "web" },
  ],
  [
    "GET",
    "/api/v1/namespaces/default/pods/web/log",
    { verb: "get", namespace: "default", resource: "pods", name: "web", subresource: "log" },
  ],
  ["HEAD", "/api/v1/nodes/n1", { verb: "get", resource: "nodes", name: "n1" }],
  ["POST", "/api/v1/namespaces/default/pods", { verb: "create", namespace: "default", resource: "pods" }],
  [
    "POST",
    "/api/v1/namespaces/ns/serviceaccounts/sa/token",
    { verb: "create", namespace: "ns", resource: "serviceaccounts", name: "sa", subresource: "token" },
  ],
  [
    "PUT",
    "/api/v1/namespaces/default/pods/web/status",
    { verb: "update", namespace: "default", resource: "pods", name: "web", subresource: "status" },
  ],
  ["PATCH", "/api/v1/nodes/n1", { verb: "patch", resource: "nodes", name: "n1" }],
  [
    "DELETE",
    "/api/v1/namespaces/a/pods/web",
    { verb: "delete", namespace: "a", resource: "pods", name: "web" },
  ],
  ["DELETE", "/api/v1/namespaces/a/pods", { verb: "deletecollection", namespace: "a", resource: "pods" }],
  ["GET", "/api/v1/namespaces", { verb: "list", resource: "namespaces" }],
  // A namespace is named in its own URL, so it is its own namespace (as upstream).
  ["GET", "/api/v1/namespaces/dev", { verb: "get", namespace: "dev", resource: "namespaces", name: "dev" }],
  [
    "PUT",
    "/api/v1/namespaces/dev/finalize",
    { verb: "update", namespace: "dev", resource: "namespaces", name: "dev", subresource: "finalize" },
  ],
  [
    "GET",
    "/apis/apps/v1/namespaces/ns/deployments/web/scale",
    {
      verb: "get",
      apiGroup: "apps",
      namespace: "ns",
      resource: "deployments",
      name: "web",
      subresource: "scale",
    },
  ],
  ["GET", "/apis/apps/v1/deployments", { verb: "list", apiGroup: "apps", resource: "deployments" }],
  ["GET", "/api/v1/watch/namespaces/default/pods", { verb: "watch", namespace: "default", resource: "pods" }],
  [
    "GET",
    "/api/v1/namespaces/default/configmaps/a%3Ab",
    { verb: "get", namespace: "default", resource: "configmaps", name: "a:b" },
  ],
];

const nonResource: [string, string, string][] = [
  ["GET", "/apis/apps/v1", "get"],
  ["GET", "/apis/apps", "get"],
  ["GET", "/api/v1", "get"],
  ["GET", "/api", "get"],
  ["GET", "/healthz", "get"],
  ["POST", "/metrics", "post"],
  ["PUT", "/", "put"],
];

describe("request attributes (RequestInfoFactory)", () => {
  for (const [method, url, expected] of cases) {
    test(`${method} ${url}`, () => {
      const attributes = requestAttributes(method, url, user);
      assert.deepEqual(attributes, {
        user,
        resourceRequest: true,
        path: url.split("?")[0]?.replace("%3A", ":"),
        apiGroup: "",
        apiVersion: "v1",
        namespace: "",
        resource: "",
        subresource: "",
        name: "",
        ...expected,
      });
    });
  }

  for (const [method, url, verb] of nonResource) {
    test(`${method} ${url} is a non-resource request`, () => {
      const attributes = requestAttributes(method, url, user);
      assert.equal(attributes.resourceRequest, false);
      assert.equal(attributes.verb, verb);
      assert.equal(attributes.path, url);
      assert.equal(attributes.resource, "");
    });
  }

  test("an unparseable field selector falls back to an unnamed list", () => {
    const attributes = requestAttributes("GET", "/api/v1/pods?fieldSelector=metadata.name", user);
    assert.deepEqual([attributes.verb, attributes.name], ["list", ""]);
  });

  test("a selected name that is not a path segment is ignored", () => {
    const attributes = requestAttributes("GET", "/api/v1/pods?fieldSelector=metadata.name%3D..", user);
    assert.equal(attributes.name, "");
  });
});
