import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eventually, startTestApiServer, type TestApiServer } from "../harness/api-server-fixture.js";

const deployment = (image: string, extraEnv = "") => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          image: ${image}
          env:
            - {name: A, value: "1"}${extraEnv}
        - name: sidecar
          image: busybox:1.36
`;

describe("kubectl with built-in kinds", () => {
  let cluster: TestApiServer;

  before(async () => {
    cluster = await startTestApiServer();
  });
  after(async () => cluster?.close());

  test("the usual namespaces exist and print as a table", async () => {
    const result = await cluster.kubectl(["get", "namespaces"]);
    assert.equal(result.code, 0, result.stderr);
    for (const name of ["default", "kube-system", "kube-public", "kube-node-lease"]) {
      assert.match(result.stdout, new RegExp(`^${name}\\s+Active\\s+\\d+[smhd]`, "m"));
    }
  });

  test("configmaps: create, get, and client-side apply with strategic merge", async () => {
    const created = await cluster.kubectl(["create", "configmap", "settings", "--from-literal=a=1"]);
    assert.equal(created.code, 0, created.stderr);
    const got = await cluster.kubectl(["get", "configmap", "settings", "-o", "jsonpath={.data.a}"]);
    assert.equal(got.stdout, "1");
    const table = await cluster.kubectl(["get", "cm", "settings"]);
    assert.match(table.stdout, /^NAME\s+DATA\s+AGE\nsettings\s+1\s+/);
  });

  test("a Deployment applied twice is patched with strategic merge, keeping containers by name", async () => {
    const first = await cluster.kubectl(["apply", "-f", "-"], { input: deployment("nginx:1.25") });
    assert.equal(first.code, 0, first.stderr);
    const second = await cluster.kubectl(["apply", "-f", "-"], {
      input: deployment("nginx:1.26", '\n            - {name: B, value: "2"}'),
    });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /deployment\.apps\/web configured/);
    const object = JSON.parse((await cluster.kubectl(["get", "deploy", "web", "-o", "json"])).stdout) as {
      metadata: { generation: number };
      spec: {
        strategy: { type: string };
        template: { spec: { containers: { name: string; image: string; env?: { name: string }[] }[] } };
      };
    };
    const containers = object.spec.template.spec.containers;
    assert.deepEqual(
      containers.map((c) => [c.name, c.image]),
      [
        ["web", "nginx:1.26"],
        ["sidecar", "busybox:1.36"],
      ],
    );
    assert.deepEqual(
      containers[0]?.env?.map((e) => e.name),
      ["A", "B"],
    );
    assert.equal(object.spec.strategy.type, "RollingUpdate", "defaults are applied to built-in kinds");
    assert.equal(object.metadata.generation, 2);
    const table = await cluster.kubectl(["get", "deployments"]);
    assert.match(table.stdout, /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\nweb\s+0\/2\s+/);
  });

  test("an invalid Pod is rejected with field paths", async () => {
    const result = await cluster.kubectl(["apply", "-f", "-"], {
      input: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: Bad_Name\nspec:\n  containers:\n    - name: c\n",
    });
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /is invalid/);
    assert.match(result.stderr, /metadata\.name/);
    assert.match(result.stderr, /spec\.containers\[0\]\.image/);
  });

  test("pods list as a table with STATUS", async () => {
    const created = await cluster.kubectl([
      "run",
      "sleeper",
      "--image=busybox:1.36",
      "--restart=Never",
      "--",
      "sleep",
      "1",
    ]);
    assert.equal(created.code, 0, created.stderr);
    const table = await cluster.kubectl(["get", "pods", "-A"]);
    assert.match(table.stdout, /^NAMESPACE\s+NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE/);
    assert.match(table.stdout, /default\s+sleeper\s+0\/1\s+Pending\s+0\s+/);
    // With kubectl run's label: on a real cluster the earlier Deployment's pods are Pending too.
    const byField = await cluster.kubectl([
      "get",
      "pods",
      "-l",
      "run=sleeper",
      "--field-selector=status.phase=Pending",
      "-o",
      "name",
    ]);
    assert.equal(byField.stdout.trim(), "pod/sleeper");
    const none = await cluster.kubectl([
      "get",
      "pods",
      "-l",
      "run=sleeper",
      "--field-selector=status.phase=Running",
      "-o",
      "name",
    ]);
    assert.equal(none.stdout.trim(), "");
  });

  test("server-side apply creates, detects conflicts with another manager, and takes over with --force-conflicts", async () => {
    const manifest = (value: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared\ndata:\n  key: "${value}"\n`;
    const created = await cluster.kubectl(["apply", "--server-side", "-f", "-"], { input: manifest("one") });
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /serverside-applied/);
    const conflict = await cluster.kubectl(["apply", "--server-side", "--field-manager=other", "-f", "-"], {
      input: manifest("two"),
    });
    assert.notEqual(conflict.code, 0);
    assert.match(conflict.stderr, /conflict/i);
    assert.match(conflict.stderr, /\.data\.key/);
    const forced = await cluster.kubectl(
      ["apply", "--server-side", "--field-manager=other", "--force-conflicts", "-f", "-"],
      {
        input: manifest("two"),
      },
    );
    assert.equal(forced.code, 0, forced.stderr);
    const managers = await cluster.kubectl([
      "get",
      "cm",
      "shared",
      "--show-managed-fields",
      "-o",
      "jsonpath={.metadata.managedFields[*].manager}",
    ]);
    assert.match(managers.stdout, /other/);
    const value = await cluster.kubectl(["get", "cm", "shared", "-o", "jsonpath={.data.key}"]);
    assert.equal(value.stdout, "two");
  });

  test("client-side apply followed by server-side apply migrates ownership", async () => {
    const manifest = (value: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: migrated\ndata:\n  key: "${value}"\n`;
    assert.equal((await cluster.kubectl(["apply", "-f", "-"], { input: manifest("a") })).code, 0);
    const serverSide = await cluster.kubectl(["apply", "--server-side", "-f", "-"], { input: manifest("b") });
    assert.equal(serverSide.code, 0, serverSide.stderr);
    const value = await cluster.kubectl(["get", "cm", "migrated", "-o", "jsonpath={.data.key}"]);
    assert.equal(value.stdout, "b");
  });

  test("a replace with a stale resourceVersion gets 409 Conflict", async () => {
    await cluster.kubectl(["create", "configmap", "versioned", "--from-literal=a=1"]);
    const current = JSON.parse((await cluster.kubectl(["get", "cm", "versioned", "-o", "json"])).stdout) as {
      metadata: { resourceVersion: string };
      data: Record<string, string>;
    };
    await cluster.kubectl(["patch", "cm", "versioned", "--type=merge", "-p", '{"data":{"a":"2"}}']);
    current.data = { a: "3" };
    const replaced = await cluster.kubectl(["replace", "-f", "-"], { input: JSON.stringify(current) });
    assert.notEqual(replaced.code, 0);
    assert.match(replaced.stderr, /the object has been modified/);
  });

  test("a no-op patch does not change the resourceVersion", async () => {
    await cluster.kubectl(["create", "configmap", "steady", "--from-literal=a=1"]);
    const before = await cluster.kubectl([
      "get",
      "cm",
      "steady",
      "-o",
      "jsonpath={.metadata.resourceVersion}",
    ]);
    const patched = await cluster.kubectl([
      "patch",
      "cm",
      "steady",
      "--type=merge",
      "-p",
      '{"data":{"a":"1"}}',
    ]);
    assert.match(patched.stdout, /patched \(no change\)/);
    const afterPatch = await cluster.kubectl([
      "get",
      "cm",
      "steady",
      "-o",
      "jsonpath={.metadata.resourceVersion}",
    ]);
    assert.equal(afterPatch.stdout, before.stdout);
  });

  test("deleting a namespace deletes what it holds, then the namespace", async () => {
    await cluster.kubectl(["create", "namespace", "doomed"]);
    await cluster.kubectl(["-n", "doomed", "create", "configmap", "inside", "--from-literal=a=1"]);
    const deleted = await cluster.kubectl(["delete", "namespace", "doomed", "--timeout=30s"]);
    assert.equal(deleted.code, 0, deleted.stderr);
    const gone = await cluster.kubectl(["get", "namespace", "doomed"]);
    assert.match(gone.stderr, /NotFound/);
    const inside = await cluster.kubectl(["-n", "doomed", "get", "configmap", "inside"]);
    assert.match(inside.stderr, /NotFound/);
    const create = await cluster.kubectl(["-n", "nowhere", "create", "configmap", "x"]);
    assert.match(create.stderr, /namespaces "nowhere" not found/);
  });

  test("kubectl describe finds a pod's events by field selector", async () => {
    await cluster.kubectl(["run", "described", "--image=busybox:1.36", "--restart=Never"]);
    const uid = (await cluster.kubectl(["get", "pod", "described", "-o", "jsonpath={.metadata.uid}"])).stdout;
    const event = {
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: "described.1", namespace: "default" },
      involvedObject: { kind: "Pod", name: "described", namespace: "default", uid },
      reason: "Testing",
      message: "an event for describe",
      type: "Normal",
      firstTimestamp: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
      lastTimestamp: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
      count: 1,
      source: { component: "test" },
    };
    assert.equal((await cluster.kubectl(["create", "-f", "-"], { input: JSON.stringify(event) })).code, 0);
    const other = {
      ...event,
      metadata: { name: "other.1", namespace: "default" },
      involvedObject: { ...event.involvedObject, name: "other" },
      message: "not this one",
    };
    await cluster.kubectl(["create", "-f", "-"], { input: JSON.stringify(other) });
    const described = await eventually("describe to show the event", async () => {
      const result = await cluster.kubectl(["describe", "pod", "described"]);
      return /an event for describe/.test(result.stdout) ? result : undefined;
    });
    assert.doesNotMatch(described.stdout, /not this one/);
  });

  test("a pod on a node is deleted gracefully: it stays through updates until its node deletes it with grace 0", async () => {
    const created = await cluster.kubectl(["apply", "-f", "-"], {
      input:
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: graceful\nspec:\n  nodeName: n1\n  containers:\n    - name: c\n      image: busybox:1.36\n",
    });
    assert.equal(created.code, 0, created.stderr);
    assert.equal((await cluster.kubectl(["delete", "pod", "graceful", "--wait=false"])).code, 0);
    const grace = await cluster.kubectl([
      "get",
      "pod",
      "graceful",
      "-o",
      "jsonpath={.metadata.deletionGracePeriodSeconds}",
    ]);
    assert.equal(grace.stdout, "30");
    assert.equal((await cluster.kubectl(["label", "pod", "graceful", "stopping=yes"])).code, 0);
    const still = await cluster.kubectl([
      "get",
      "pod",
      "graceful",
      "-o",
      "jsonpath={.metadata.labels.stopping}",
    ]);
    assert.equal(still.stdout, "yes", "an update during the grace period keeps the pod");
    const final = await cluster.kubectl(["delete", "pod", "graceful", "--grace-period=0", "--force"]);
    assert.equal(final.code, 0, final.stderr);
    const gone = await cluster.kubectl(["get", "pod", "graceful"]);
    assert.match(gone.stderr, /NotFound/);
  });
});
