import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  eventually,
  skippedOnRealApiServer,
  startTestApiServer,
  type TestApiServer,
} from "../harness/api-server-fixture.js";
import { fixturePath } from "./testing/fixtures.js";

describe("kubectl with custom resources", () => {
  let cluster: TestApiServer;

  before(async () => {
    cluster = await startTestApiServer();
    const applied = await cluster.kubectl(["apply", "-f", fixturePath("widget-crd.yaml")]);
    assert.equal(applied.code, 0, applied.stderr);
    const established = await cluster.kubectl([
      "wait",
      "--for=condition=established",
      "crd/widgets.example.kubevirt.io",
      "--timeout=30s",
    ]);
    assert.equal(established.code, 0, established.stderr);
  });
  after(async () => cluster?.close());

  test("kubectl version sees server 1.32", async (t) => {
    if (skippedOnRealApiServer(t, "the real API server here is Kubernetes 1.20")) return;
    const result = await cluster.kubectl(["version", "-o", "json"]);
    assert.equal(result.code, 0, result.stderr);
    const version = JSON.parse(result.stdout) as { serverVersion: { major: string; minor: string } };
    assert.deepEqual([version.serverVersion.major, version.serverVersion.minor], ["1", "32"]);
  });

  test("a created CRD shows up in discovery with its short name and category", async () => {
    const result = await cluster.kubectl(["api-resources", "--api-group=example.kubevirt.io", "-o", "wide"]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /widgets\s+wd\s+example\.kubevirt\.io\/v1\s+true\s+Widget/);
    assert.match(result.stdout, /all/);
  });

  test("apply creates a resource with schema defaults, then apply changes it and bumps generation", async () => {
    const created = await cluster.kubectl(["apply", "-f", fixturePath("widget.yaml")]);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /widget\.example\.kubevirt\.io\/w1 created/);
    const object = JSON.parse((await cluster.kubectl(["get", "wd", "w1", "-o", "json"])).stdout) as {
      metadata: { generation: number; uid: string; resourceVersion: string };
      spec: { color: string; replicas: number };
    };
    assert.equal(object.spec.color, "blue");
    assert.equal(object.spec.replicas, 1);
    assert.equal(object.metadata.generation, 1);
    assert.match(object.metadata.uid, /^[0-9a-f-]{36}$/);

    const changed = await cluster.kubectl(["apply", "-f", "-"], {
      input:
        "apiVersion: example.kubevirt.io/v1\nkind: Widget\nmetadata:\n  name: w1\n  labels:\n    app: demo\nspec:\n  size: medium\n  tags: [a, b]\n",
    });
    assert.equal(changed.code, 0, changed.stderr);
    assert.match(changed.stdout, /configured/);
    const generation = await cluster.kubectl([
      "get",
      "wd",
      "w1",
      "-o",
      "jsonpath={.metadata.generation} {.spec.size}",
    ]);
    assert.equal(generation.stdout, "2 medium");

    const again = await cluster.kubectl(["apply", "-f", "-"], {
      input:
        "apiVersion: example.kubevirt.io/v1\nkind: Widget\nmetadata:\n  name: w1\n  labels:\n    app: demo\nspec:\n  size: medium\n  tags: [a, b]\n",
    });
    assert.match(again.stdout, /unchanged/);
  });

  test("kubectl get prints the CRD's printer columns", async () => {
    await cluster.kubectl(["apply", "-f", fixturePath("widget.yaml")]);
    const result = await cluster.kubectl(["get", "widgets"]);
    assert.equal(result.code, 0, result.stderr);
    const [header, row] = result.stdout.trim().split("\n");
    assert.match(header ?? "", /^NAME\s+SIZE\s+REPLICAS\s+READY\s+AGE$/);
    // A printer column with no value is a null cell, which kubectl prints blank.
    assert.match(row ?? "", /^w1\s+small\s+1\s+\d+s$/);
  });

  test("merge and JSON patches apply; strategic merge on a custom resource is refused", async () => {
    await cluster.kubectl(["apply", "-f", fixturePath("widget.yaml")]);
    const merge = await cluster.kubectl([
      "patch",
      "wd",
      "w1",
      "--type=merge",
      "-p",
      '{"spec":{"replicas":3}}',
    ]);
    assert.equal(merge.code, 0, merge.stderr);
    const json = await cluster.kubectl([
      "patch",
      "wd",
      "w1",
      "--type=json",
      "-p",
      '[{"op":"test","path":"/spec/replicas","value":3},{"op":"add","path":"/spec/tags/-","value":"c"}]',
    ]);
    assert.equal(json.code, 0, json.stderr);
    const tags = await cluster.kubectl(["get", "wd", "w1", "-o", "jsonpath={.spec.tags}"]);
    assert.equal(tags.stdout, '["a","b","c"]');

    const failedTest = await cluster.kubectl([
      "patch",
      "wd",
      "w1",
      "--type=json",
      "-p",
      '[{"op":"test","path":"/spec/replicas","value":7}]',
    ]);
    assert.notEqual(failedTest.code, 0);
    assert.match(failedTest.stderr, /invalid/i);

    const strategic = await cluster.kubectl(["patch", "wd", "w1", "-p", '{"spec":{"replicas":2}}']);
    assert.notEqual(strategic.code, 0);
    assert.match(strategic.stderr, /strategic-merge-patch\+json is not supported/);
  });

  test("an invalid resource is rejected with 422 and one line per field path", async () => {
    const result = await cluster.kubectl(["apply", "-f", "-"], {
      input:
        "apiVersion: example.kubevirt.io/v1\nkind: Widget\nmetadata:\n  name: bad\nspec:\n  size: huge\n  replicas: 20\n  color: Red\n",
    });
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /The Widget "bad" is invalid/);
    assert.match(result.stderr, /spec\.size: Unsupported value: "huge"/);
    assert.match(result.stderr, /spec\.replicas: Invalid value: 20/);
    assert.match(result.stderr, /spec\.color: Invalid value: "Red"/);
    const missing = await cluster.kubectl(["get", "wd", "bad"]);
    assert.match(missing.stderr, /NotFound/);
  });

  test("unknown fields: rejected under Strict (kubectl's default), a warning under Warn", async (t) => {
    const noFieldValidation =
      "Kubernetes 1.20 has no server-side field validation (1.25+): kubectl validates on the client";
    if (skippedOnRealApiServer(t, noFieldValidation)) return;
    const manifest =
      "apiVersion: example.kubevirt.io/v1\nkind: Widget\nmetadata:\n  name: unknown\nspec:\n  size: small\n  bogusField: 1\n";
    const strict = await cluster.kubectl(["apply", "-f", "-"], { input: manifest });
    assert.notEqual(strict.code, 0);
    assert.match(strict.stderr, /unknown field "spec\.bogusField"/);
    const warn = await cluster.kubectl(["apply", "--validate=warn", "-f", "-"], { input: manifest });
    assert.equal(warn.code, 0, warn.stderr);
    assert.match(warn.stderr, /Warning: unknown field "spec\.bogusField"/);
    const stored = await cluster.kubectl(["get", "wd", "unknown", "-o", "jsonpath={.spec}"]);
    assert.doesNotMatch(stored.stdout, /bogusField/, "unknown fields are pruned, not stored");
    const preserved = await cluster.kubectl([
      "patch",
      "wd",
      "unknown",
      "--type=merge",
      "-p",
      '{"spec":{"extra":{"anything":{"goes":true}}}}',
    ]);
    assert.equal(preserved.code, 0, preserved.stderr);
    const extra = await cluster.kubectl([
      "get",
      "wd",
      "unknown",
      "-o",
      "jsonpath={.spec.extra.anything.goes}",
    ]);
    assert.equal(extra.stdout, "true", "x-kubernetes-preserve-unknown-fields keeps what it holds");
  });

  test("the status subresource changes only status; kubectl wait sees the condition", async () => {
    await cluster.kubectl(["apply", "-f", fixturePath("widget.yaml")]);
    const before = await cluster.kubectl([
      "get",
      "wd",
      "w1",
      "-o",
      "jsonpath={.metadata.generation} {.spec.size}",
    ]);
    const patched = await cluster.kubectl([
      "patch",
      "wd",
      "w1",
      "--subresource=status",
      "--type=merge",
      "-p",
      '{"spec":{"size":"large"},"status":{"replicas":1,"conditions":[{"type":"Ready","status":"True"}]}}',
    ]);
    assert.equal(patched.code, 0, patched.stderr);
    const afterPatch = await cluster.kubectl([
      "get",
      "wd",
      "w1",
      "-o",
      "jsonpath={.metadata.generation} {.spec.size}",
    ]);
    assert.equal(afterPatch.stdout, before.stdout, "a status write changes neither spec nor generation");
    const waited = await cluster.kubectl(["wait", "--for=condition=Ready", "wd/w1", "--timeout=10s"]);
    assert.equal(waited.code, 0, waited.stderr);
    const table = await cluster.kubectl(["get", "wd", "w1", "--no-headers"]);
    assert.match(table.stdout, /^w1\s+\S+\s+\d+\s+True\s+/);
    const spec = await cluster.kubectl([
      "patch",
      "wd",
      "w1",
      "--type=merge",
      "-p",
      '{"status":{"replicas":9}}',
    ]);
    assert.equal(spec.code, 0, spec.stderr);
    const replicas = await cluster.kubectl(["get", "wd", "w1", "-o", "jsonpath={.status.replicas}"]);
    assert.equal(replicas.stdout, "1", "a write to the main resource keeps the stored status");
  });

  test("kubectl wait times out when the condition never comes", async () => {
    await cluster.kubectl(["apply", "-f", fixturePath("widget.yaml")]);
    const waited = await cluster.kubectl(["wait", "--for=condition=Exploded", "wd/w1", "--timeout=2s"]);
    assert.notEqual(waited.code, 0);
    assert.match(waited.stderr, /timed out/);
  });

  test("kubectl scale goes through the scale subresource", async () => {
    await cluster.kubectl(["apply", "-f", fixturePath("widget.yaml")]);
    const scaled = await cluster.kubectl(["scale", "wd", "w1", "--replicas=4"]);
    assert.equal(scaled.code, 0, scaled.stderr);
    const replicas = await cluster.kubectl(["get", "wd", "w1", "-o", "jsonpath={.spec.replicas}"]);
    assert.equal(replicas.stdout, "4");
  });

  test("kubectl explain reads the CRD's schema through OpenAPI v3", async () => {
    const result = await cluster.kubectl(["explain", "widget.spec.size"]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /How big the widget is/);
    const kind = await cluster.kubectl(["explain", "widgets"]);
    assert.match(kind.stdout, /A Widget is a test kind/);
  });

  test("a resource with a finalizer stays, marked for deletion, until the finalizer goes", async () => {
    const created = await cluster.kubectl(["apply", "-f", "-"], {
      input:
        "apiVersion: example.kubevirt.io/v1\nkind: Widget\nmetadata:\n  name: held\n  finalizers: [example.kubevirt.io/hold]\nspec:\n  size: small\n",
    });
    assert.equal(created.code, 0, created.stderr);
    const deleted = await cluster.kubectl(["delete", "wd", "held", "--wait=false"]);
    assert.equal(deleted.code, 0, deleted.stderr);
    const marked = await cluster.kubectl([
      "get",
      "wd",
      "held",
      "-o",
      "jsonpath={.metadata.deletionTimestamp}",
    ]);
    assert.match(marked.stdout, /^\d{4}-\d\d-\d\dT/);
    const addFinalizer = await cluster.kubectl([
      "patch",
      "wd",
      "held",
      "--type=json",
      "-p",
      '[{"op":"add","path":"/metadata/finalizers/-","value":"x/y"}]',
    ]);
    assert.notEqual(addFinalizer.code, 0, "no new finalizers on an object being deleted");
    const waiter = cluster.kubectl(["wait", "--for=delete", "wd/held", "--timeout=20s"]);
    const released = await cluster.kubectl([
      "patch",
      "wd",
      "held",
      "--type=merge",
      "-p",
      '{"metadata":{"finalizers":null}}',
    ]);
    assert.equal(released.code, 0, released.stderr);
    assert.equal((await waiter).code, 0);
    const gone = await cluster.kubectl(["get", "wd", "held"]);
    assert.match(gone.stderr, /NotFound/);
  });

  test("kubectl get -w prints changes as they happen", async () => {
    const watcher = cluster.kubectl(["get", "wd", "-w", "--request-timeout=5s"], { timeoutMs: 6_000 });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await cluster.kubectl(["apply", "-f", "-"], {
      input:
        "apiVersion: example.kubevirt.io/v1\nkind: Widget\nmetadata:\n  name: watched\nspec:\n  size: large\n",
    });
    const output = (await watcher).stdout;
    assert.match(output, /^watched\s+large\s+1\s+/m);
  });

  test("deleting the CRD deletes its resources and takes it out of discovery", async () => {
    await cluster.kubectl(["apply", "-f", fixturePath("widget.yaml")]);
    const deleted = await cluster.kubectl(["delete", "crd", "widgets.example.kubevirt.io", "--timeout=30s"]);
    assert.equal(deleted.code, 0, deleted.stderr);
    await eventually("widgets to leave discovery", async () => {
      const result = await cluster.kubectl(["get", "widgets"]);
      // kubectl's cached discovery still names widgets, so it asks and gets a 404 (as from kube-apiserver).
      return /doesn't have a resource type "widgets"|NotFound/.test(result.stderr) ? true : undefined;
    });
    // Recreated, the CRD starts empty.
    await cluster.kubectl(["apply", "-f", fixturePath("widget-crd.yaml")]);
    await cluster.kubectl([
      "wait",
      "--for=condition=established",
      "crd/widgets.example.kubevirt.io",
      "--timeout=30s",
    ]);
    const list = await eventually("the recreated CRD to serve", async () => {
      const result = await cluster.kubectl(["get", "widgets", "-o", "name"]);
      return result.code === 0 ? result : undefined;
    });
    assert.equal(list.stdout.trim(), "");
  });
});
