import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { canonicalJson, sameTemplate, templateHash } from "./template-hash.js";

const template = {
  metadata: { labels: { app: "web" } },
  spec: { containers: [{ name: "c", image: "a:1" }] },
};

describe("pod template hash", () => {
  test("is stable, ignores key order, and uses kube's safe alphabet", () => {
    const reordered = {
      spec: { containers: [{ image: "a:1", name: "c" }] },
      metadata: { labels: { app: "web" } },
    };
    assert.equal(templateHash(template), templateHash(reordered));
    assert.match(templateHash(template), /^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
  });

  test("changes with the template and with the collision count", () => {
    const changed = { ...template, spec: { containers: [{ name: "c", image: "a:2" }] } };
    assert.notEqual(templateHash(template), templateHash(changed));
    assert.notEqual(templateHash(template), templateHash(template, 1));
    assert.equal(templateHash(template, 0), templateHash(template));
  });

  test("canonical JSON sorts keys and drops undefined and null members", () => {
    assert.equal(canonicalJson({ b: 1, a: [{ d: 2, c: undefined, e: null }] }), '{"a":[{"d":2}],"b":1}');
    assert.equal(
      templateHash({ ...template, metadata: { ...template.metadata, creationTimestamp: null } }),
      templateHash(template),
    );
    assert.ok(sameTemplate({ a: 1, b: 2 }, { b: 2, a: 1 }));
    assert.ok(!sameTemplate([1, 2], [2, 1]));
  });
});
