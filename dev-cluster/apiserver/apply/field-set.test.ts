import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonObject } from "../json.js";
import type { FieldSemanticsLookup } from "../resource-type.js";
import { FieldSet, fieldSetFromFieldsV1, fieldSetOf, fieldSetToFieldsV1 } from "./field-set.js";
import { type FieldPath, pathToString } from "./path-element.js";

const semantics: FieldSemanticsLookup = (path) => {
  switch (path.join(".")) {
    case "spec.containers":
      return { list: { type: "map", keys: ["name"] } };
    case "spec.containers.ports":
      return { list: { type: "map", keys: ["containerPort", "protocol"] } };
    case "spec.tags":
      return { list: { type: "set" } };
    case "spec.selector":
      return { map: "atomic" };
    default:
      return undefined;
  }
};

const pod: JsonObject = {
  metadata: { labels: { app: "web" }, annotations: {} },
  spec: {
    replicas: 2,
    selector: { app: "web" },
    tags: ["a", "b"],
    args: ["--x", "--y"],
    containers: [{ name: "c", image: "nginx", ports: [{ containerPort: 80, protocol: "TCP" }] }],
  },
};

describe("fieldSetOf", () => {
  test("owns leaves, map-list items with '.', set values, atomic lists and maps; empty maps own nothing", () => {
    assert.deepEqual(fieldSetToFieldsV1(fieldSetOf(pod, semantics)), {
      "f:metadata": { "f:labels": { "f:app": {} } },
      "f:spec": {
        "f:replicas": {},
        "f:selector": {},
        "f:tags": { 'v:"a"': {}, 'v:"b"': {} },
        "f:args": {},
        "f:containers": {
          'k:{"name":"c"}': {
            ".": {},
            "f:name": {},
            "f:image": {},
            "f:ports": {
              'k:{"containerPort":80,"protocol":"TCP"}': { ".": {}, "f:containerPort": {}, "f:protocol": {} },
            },
          },
        },
      },
    });
  });

  test("an omitted protocol key takes its default, so applied and stored ports are the same item", () => {
    const applied = fieldSetOf(
      { spec: { containers: [{ name: "c", ports: [{ containerPort: 80 }] }] } },
      semantics,
    );
    assert.ok(
      applied.has([
        "f:spec",
        "f:containers",
        'k:{"name":"c"}',
        "f:ports",
        'k:{"containerPort":80,"protocol":"TCP"}',
      ]),
    );
  });

  const atomicFallbacks: [string, JsonObject][] = [
    ["an item without its key", { spec: { containers: [{ image: "nginx" }] } }],
    ["duplicate keys", { spec: { containers: [{ name: "c" }, { name: "c" }] } }],
    ["non-scalar set items", { spec: { tags: [{ a: 1 }] } }],
  ];
  for (const [name, object] of atomicFallbacks) {
    test(`a list with ${name} is owned whole`, () => {
      const fields = fieldSetOf(object, semantics);
      assert.equal(fields.size, 1);
      assert.equal(fields.paths()[0]?.length, 2);
    });
  }
});

describe("FieldSet algebra", () => {
  const a: FieldPath = ["f:a"];
  const b: FieldPath = ["f:b"];
  const c: FieldPath = ["f:c", "f:d"];
  const left = FieldSet.of([a, b]);
  const right = FieldSet.of([b, c]);
  const cases: [string, FieldSet, FieldPath[]][] = [
    ["union", left.union(right), [a, b, c]],
    ["difference", left.difference(right), [a]],
    ["intersection", left.intersection(right), [b]],
    ["empty difference", FieldSet.EMPTY.difference(right), []],
  ];
  for (const [name, result, expected] of cases) {
    test(name, () => assert.ok(result.equals(FieldSet.of(expected)), JSON.stringify(result.paths())));
  }

  test("hasDescendants sees members strictly below a path only", () => {
    assert.equal(right.hasDescendants(["f:c"]), true);
    assert.equal(right.hasDescendants(c), false);
    assert.equal(right.hasDescendants(["f:b"]), false);
  });
});

describe("fieldsV1", () => {
  test("round-trips, re-spelling keys with their fields sorted", () => {
    const wire: JsonObject = {
      "f:spec": {
        "f:containers": {
          'k:{"name":"x"}': { ".": {}, "f:image": {}, "f:name": {} },
          'k:{"protocol":"TCP","containerPort":80}': { ".": {} },
        },
        "f:finalizers": { 'v:"keep"': {} },
      },
    };
    const decoded = fieldSetFromFieldsV1(wire);
    assert.equal(decoded.size, 5);
    assert.ok(decoded.has(["f:spec", "f:containers", 'k:{"name":"x"}']));
    assert.ok(decoded.has(["f:spec", "f:containers", 'k:{"containerPort":80,"protocol":"TCP"}']));
    const reencoded = fieldSetToFieldsV1(decoded);
    assert.ok(fieldSetFromFieldsV1(reencoded).equals(decoded));
    assert.deepEqual(Object.keys((reencoded["f:spec"] as JsonObject)["f:containers"] as JsonObject), [
      'k:{"containerPort":80,"protocol":"TCP"}',
      'k:{"name":"x"}',
    ]);
  });

  const malformed: [string, unknown][] = [
    ["an unknown prefix", { "x:foo": {} }],
    ["a non-object value", { "f:a": 1 }],
    ["a key that is not JSON", { "k:{name": {} }],
    ["a non-object document", []],
  ];
  for (const [name, wire] of malformed) {
    test(`rejects ${name}`, () => assert.throws(() => fieldSetFromFieldsV1(wire as JsonObject), Error));
  }
});

test("pathToString prints paths as upstream conflicts do", () => {
  assert.equal(
    pathToString(["f:spec", "f:containers", 'k:{"name":"c"}', "f:image"]),
    '.spec.containers[name="c"].image',
  );
  assert.equal(pathToString(["f:metadata", "f:finalizers", 'v:"x"']), '.metadata.finalizers[="x"]');
  assert.equal(
    pathToString(["f:ports", 'k:{"containerPort":80,"protocol":"TCP"}']),
    '.ports[containerPort=80,protocol="TCP"]',
  );
});
