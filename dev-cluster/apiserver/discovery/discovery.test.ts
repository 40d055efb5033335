import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import {
  aggregatedDiscovery,
  aggregatedDiscoveryContentType,
  aggregatedDiscoveryContentTypeFor,
  negotiateAggregatedDiscovery,
} from "./aggregated-discovery.js";
import { apiGroup, apiGroupList, apiResourceList, apiVersions } from "./legacy-discovery.js";
import { fakeResourceType } from "./testing/fake-resource-type.js";
import { compareKubeVersions } from "./version-priority.js";

const pod = fakeResourceType({
  group: "",
  kind: "Pod",
  shortNames: ["po"],
  categories: ["all"],
  builtin: true,
  statusSubresource: true,
  otherSubresources: ["log", "binding", "eviction"],
});
const namespace = fakeResourceType({ group: "", kind: "Namespace", namespaced: false, builtin: true });
const deployment = fakeResourceType({
  group: "apps",
  kind: "Deployment",
  builtin: true,
  statusSubresource: true,
  scaleSubresource: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" },
});
const vmV1 = fakeResourceType({
  group: "kubevirt.example.io",
  kind: "VirtualMachine",
  shortNames: ["vm"],
  categories: ["all"],
  statusSubresource: true,
});
const vmAlpha = { ...vmV1, version: "v1alpha1" };
const snapshot = fakeResourceType({ group: "aaa.example.io", kind: "Snapshot" });
const types = [vmAlpha, snapshot, vmV1, deployment, namespace, pod];

function objectAt(value: JsonValue | undefined, ...path: (string | number)[]): JsonObject {
  let current: JsonValue | undefined = value;
  for (const key of path) {
    if (Array.isArray(current) && typeof key === "number") current = current[key];
    else if (isJsonObject(current) && typeof key === "string") current = current[key];
    else current = undefined;
  }
  assert.ok(isJsonObject(current), `expected an object at ${path.join(".")}`);
  return current;
}

function arrayAt(value: JsonObject, key: string): JsonValue[] {
  const found = value[key];
  assert.ok(Array.isArray(found), `expected an array at ${key}`);
  return found;
}

describe("aggregated discovery", () => {
  test("/api holds only the core group, without a name", () => {
    const list = aggregatedDiscovery(types, "api");
    assert.equal(list.kind, "APIGroupDiscoveryList");
    assert.equal(list.apiVersion, "apidiscovery.k8s.io/v2");
    const items = arrayAt(list, "items");
    assert.equal(items.length, 1);
    assert.deepEqual(objectAt(items, 0, "metadata"), {});
    const resources = arrayAt(objectAt(items, 0, "versions", 0), "resources");
    assert.deepEqual(
      resources.map((r) => objectAt(r).resource),
      ["namespaces", "pods"],
    );
  });

  test("a resource carries kind, scope, names, verbs and subresources", () => {
    const items = arrayAt(aggregatedDiscovery(types, "api"), "items");
    const podEntry = objectAt(items, 0, "versions", 0, "resources", 1);
    assert.deepEqual(podEntry, {
      resource: "pods",
      responseKind: { group: "", version: "", kind: "Pod" },
      scope: "Namespaced",
      singularResource: "pod",
      verbs: ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
      shortNames: ["po"],
      categories: ["all"],
      subresources: [
        {
          subresource: "binding",
          responseKind: { group: "", version: "", kind: "Binding" },
          verbs: ["create"],
        },
        {
          subresource: "eviction",
          responseKind: { group: "policy", version: "v1", kind: "Eviction" },
          verbs: ["create"],
        },
        { subresource: "log", responseKind: { group: "", version: "", kind: "Pod" }, verbs: ["get"] },
        {
          subresource: "status",
          responseKind: { group: "", version: "", kind: "Pod" },
          verbs: ["get", "patch", "update"],
        },
      ],
    });
    const namespaceEntry = objectAt(items, 0, "versions", 0, "resources", 0);
    assert.equal(namespaceEntry.scope, "Cluster");
    assert.equal(namespaceEntry.shortNames, undefined, "empty lists are omitted");
    assert.equal(namespaceEntry.subresources, undefined);
  });

  test("/apis lists built-in groups first, then the rest alphabetically, versions by priority", () => {
    const items = arrayAt(aggregatedDiscovery(types, "apis"), "items");
    assert.deepEqual(
      items.map((item) => objectAt(item, "metadata").name),
      ["apps", "aaa.example.io", "kubevirt.example.io"],
    );
    const vmVersions = arrayAt(objectAt(items, 2), "versions").map((v) => objectAt(v).version);
    assert.deepEqual(vmVersions, ["v1", "v1alpha1"]);
    assert.equal(objectAt(items, 2, "versions", 0).freshness, "Current");
  });

  test("scale subresource answers with autoscaling/v1 Scale", () => {
    const items = arrayAt(aggregatedDiscovery(types, "apis"), "items");
    const subresources = arrayAt(objectAt(items, 0, "versions", 0, "resources", 0), "subresources");
    assert.deepEqual(objectAt(subresources, 0), {
      subresource: "scale",
      responseKind: { group: "autoscaling", version: "v1", kind: "Scale" },
      verbs: ["get", "patch", "update"],
    });
  });

  test("a create-only resource lists its verbs only, in both documents", () => {
    const review = fakeResourceType({
      group: "authorization.k8s.io",
      kind: "SubjectAccessReview",
      verbs: ["create"],
    });
    const resources = objectAt(
      aggregatedDiscovery([review], "apis"),
      "items",
      0,
      "versions",
      0,
      "resources",
      0,
    );
    assert.deepEqual(resources.verbs, ["create"]);
    const legacy = apiResourceList([review], "authorization.k8s.io/v1");
    assert.deepEqual(objectAt(legacy, "resources", 0).verbs, ["create"]);
  });

  test("the v2beta1 body names its own apiVersion", () => {
    assert.equal(aggregatedDiscovery(types, "apis", "v2beta1").apiVersion, "apidiscovery.k8s.io/v2beta1");
    assert.equal(
      aggregatedDiscoveryContentTypeFor("v2beta1"),
      "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList",
    );
    assert.equal(aggregatedDiscoveryContentTypeFor("v2"), aggregatedDiscoveryContentType);
  });
});

describe("negotiateAggregatedDiscovery", () => {
  const kubectlAccept =
    "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";
  const cases: [string, string | undefined, string | undefined][] = [
    ["kubectl 1.32", kubectlAccept, "v2"],
    ["v2beta1 only", "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList", "v2beta1"],
    ["plain json first", `application/json, ${kubectlAccept}`, undefined],
    [
      "q values reorder",
      "application/json;q=0.5, application/json;as=APIGroupDiscoveryList;v=v2;g=apidiscovery.k8s.io",
      "v2",
    ],
    ["client-node", "application/json, */*;q=0.8", undefined],
    ["missing header", undefined, undefined],
    [
      "protobuf aggregated only",
      "application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
      undefined,
    ],
    [
      "unknown version skipped",
      "application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
      "v2",
    ],
  ];
  for (const [name, accept, expected] of cases) {
    test(name, () => assert.equal(negotiateAggregatedDiscovery(accept), expected));
  }
});

describe("legacy discovery", () => {
  test("/api names v1 and the server address", () => {
    assert.deepEqual(apiVersions("127.0.0.1:6443"), {
      kind: "APIVersions",
      versions: ["v1"],
      serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress: "127.0.0.1:6443" }],
    });
  });

  test("/apis lists named groups with their preferred version", () => {
    const list = apiGroupList(types);
    assert.equal(list.kind, "APIGroupList");
    const groups = arrayAt(list, "groups");
    assert.deepEqual(objectAt(groups, 2), {
      name: "kubevirt.example.io",
      versions: [
        { groupVersion: "kubevirt.example.io/v1", version: "v1" },
        { groupVersion: "kubevirt.example.io/v1alpha1", version: "v1alpha1" },
      ],
      preferredVersion: { groupVersion: "kubevirt.example.io/v1", version: "v1" },
    });
    assert.equal(groups.length, 3, "the core group is not on /apis");
  });

  test("/apis/<group> answers one group, unknown groups none", () => {
    const group = apiGroup(types, "apps");
    assert.equal(group?.kind, "APIGroup");
    assert.equal(group?.name, "apps");
    assert.equal(apiGroup(types, "nope.io"), undefined);
    assert.equal(apiGroup(types, ""), undefined, "the core group is served on /api");
  });

  test("/apis/<g>/<v> lists resources and res/sub entries", () => {
    const list = apiResourceList(types, "kubevirt.example.io/v1");
    assert.ok(list);
    assert.equal(list.groupVersion, "kubevirt.example.io/v1");
    assert.deepEqual(list.resources, [
      {
        name: "virtualmachines",
        singularName: "virtualmachine",
        namespaced: true,
        kind: "VirtualMachine",
        verbs: ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
        shortNames: ["vm"],
        categories: ["all"],
      },
      {
        name: "virtualmachines/status",
        singularName: "",
        namespaced: true,
        kind: "VirtualMachine",
        verbs: ["get", "patch", "update"],
      },
    ]);
  });

  test("cross-group subresource kinds carry group and version; /api/v1 is the core list", () => {
    const apps = apiResourceList(types, "apps/v1");
    const scale = arrayAt(apps ?? {}, "resources")
      .map((r) => objectAt(r))
      .find((r) => r.name === "deployments/scale");
    assert.deepEqual(scale, {
      name: "deployments/scale",
      singularName: "",
      namespaced: true,
      kind: "Scale",
      verbs: ["get", "patch", "update"],
      group: "autoscaling",
      version: "v1",
    });
    const core = apiResourceList(types, "v1");
    assert.deepEqual(
      arrayAt(core ?? {}, "resources").map((r) => objectAt(r).name),
      ["namespaces", "pods", "pods/binding", "pods/eviction", "pods/log", "pods/status"],
    );
    assert.equal(apiResourceList(types, "apps/v2"), undefined);
  });
});

test("compareKubeVersions orders GA, beta, alpha, then other names", () => {
  const versions = ["v1alpha1", "foo", "v1beta1", "v2", "v1", "v1beta2", "bar", "v2alpha1"];
  assert.deepEqual(versions.sort(compareKubeVersions), [
    "v2",
    "v1",
    "v1beta2",
    "v1beta1",
    "v2alpha1",
    "v1alpha1",
    "bar",
    "foo",
  ]);
});
