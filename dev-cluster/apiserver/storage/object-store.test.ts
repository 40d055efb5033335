import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { ApiError } from "../api-error.js";
import type { JsonObject } from "../json.js";
import { type ObjectKey, ObjectStore } from "./object-store.js";
import type { ChangeEvent } from "./watch-history.js";

const key = (name: string, namespace = "default"): ObjectKey => ({
  resource: "/configmaps",
  namespace,
  name,
});
const configMap = (name: string, data: Record<string, string> = {}): JsonObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace: "default" },
  data,
});

describe("ObjectStore", () => {
  test("every write gets a higher resourceVersion, written into the stored object", () => {
    const store = new ObjectStore({ path: ":memory:" });
    const [a] = store.commit([{ type: "put", key: key("a"), object: configMap("a") }]);
    const [b] = store.commit([{ type: "put", key: key("b"), object: configMap("b") }]);
    const rvA = Number(((a as JsonObject).metadata as JsonObject).resourceVersion);
    const rvB = Number(((b as JsonObject).metadata as JsonObject).resourceVersion);
    assert.ok(rvB > rvA);
    assert.equal(store.revision(), rvB);
    assert.deepEqual(store.get(key("a")), a);
    store.close();
  });

  test("lists are ordered by namespace and name and scoped to a namespace", () => {
    const store = new ObjectStore({ path: ":memory:" });
    for (const [ns, name] of [
      ["b", "x"],
      ["a", "z"],
      ["a", "y"],
    ] as const) {
      store.commit([
        {
          type: "put",
          key: key(name, ns),
          object: { ...configMap(name), metadata: { name, namespace: ns } },
        },
      ]);
    }
    const names = (objects: JsonObject[]) =>
      objects.map((o) => `${(o.metadata as JsonObject).namespace}/${(o.metadata as JsonObject).name}`);
    assert.deepEqual(names(store.list("/configmaps")), ["a/y", "a/z", "b/x"]);
    assert.deepEqual(names(store.list("/configmaps", "a")), ["a/y", "a/z"]);
    store.close();
  });

  test("objects, revision and history survive a restart on the same file", () => {
    const dir = mkdtempSync(join(tmpdir(), "store-test-"));
    const path = join(dir, "store.sqlite");
    let store = new ObjectStore({ path });
    store.commit([{ type: "put", key: key("a"), object: configMap("a", { k: "v" }) }]);
    store.commit([{ type: "put", key: key("b"), object: configMap("b") }]);
    store.commit([{ type: "delete", key: key("b"), object: configMap("b") }]);
    const revision = store.revision();
    store.close();

    store = new ObjectStore({ path });
    assert.equal(
      store.revision(),
      revision,
      "the revision does not go back even though the newest object was deleted",
    );
    assert.deepEqual((store.get(key("a")) as JsonObject).data, { k: "v" });
    assert.equal(store.get(key("b")), undefined);
    const replayed: ChangeEvent[] = [];
    const stop = store.watch(revision - 2, (event) => replayed.push(event));
    assert.deepEqual(
      replayed.map((e) => [e.type, e.name]),
      [
        ["ADDED", "b"],
        ["DELETED", "b"],
      ],
    );
    stop();
    const [c] = store.commit([{ type: "put", key: key("c"), object: configMap("c") }]);
    assert.equal(Number(((c as JsonObject).metadata as JsonObject).resourceVersion), revision + 1);
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a watch from before the history window gets 410 Expired", () => {
    const store = new ObjectStore({ path: ":memory:", historySize: 3 });
    for (let i = 0; i < 10; i++)
      store.commit([{ type: "put", key: key(`o${i}`), object: configMap(`o${i}`) }]);
    assert.throws(
      () => store.watch(2, () => {}),
      (error: unknown) => error instanceof ApiError && error.code === 410 && error.reason === "Expired",
    );
    const events: ChangeEvent[] = [];
    store.watch(store.revision() - 2, (e) => events.push(e))();
    assert.equal(events.length, 2);
    store.close();
  });

  test("a transaction of several mutations is delivered in order after it commits", () => {
    const store = new ObjectStore({ path: ":memory:" });
    const seen: string[] = [];
    store.onChange((event) => {
      // Readers see the whole transaction's result by the time the first event arrives.
      assert.ok(store.get(key("y")));
      seen.push(`${event.type}:${event.name}`);
    });
    store.commit([
      { type: "put", key: key("x"), object: configMap("x") },
      { type: "put", key: key("y"), object: configMap("y") },
    ]);
    assert.deepEqual(seen, ["ADDED:x", "ADDED:y"]);
    store.close();
  });
});
