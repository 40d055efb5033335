import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startTestApiServer, type TestApiServer } from "../harness/api-server-fixture.js";

const storageClass = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: fast
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: example.com/fast
`;

const volume = `apiVersion: v1
kind: PersistentVolume
metadata: {name: pv1}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce, ReadOnlyMany]
  storageClassName: manual
  hostPath: {path: /tmp/pv1}
`;

const claim = (extra = "") => `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  storageClassName: manual
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}${extra}
`;

describe("kubectl with the storage kinds", () => {
  let cluster: TestApiServer;

  before(async () => {
    cluster = await startTestApiServer();
  });
  after(async () => cluster?.close());

  test("discovery lists pvc, pv and sc with storage.k8s.io", async () => {
    const result = await cluster.kubectl(["api-resources"]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^persistentvolumeclaims\s+pvc\s+v1\s+true\s+PersistentVolumeClaim$/m);
    assert.match(result.stdout, /^persistentvolumes\s+pv\s+v1\s+false\s+PersistentVolume$/m);
    assert.match(result.stdout, /^storageclasses\s+sc\s+storage\.k8s\.io\/v1\s+false\s+StorageClass$/m);
  });

  test("kinds are defaulted and print kube's columns", async () => {
    for (const manifest of [storageClass, volume, claim()]) {
      const applied = await cluster.kubectl(["apply", "-f", "-"], { input: manifest });
      assert.equal(applied.code, 0, applied.stderr);
    }
    const sc = await cluster.kubectl(["get", "sc"]);
    assert.match(
      sc.stdout,
      /^NAME\s+PROVISIONER\s+RECLAIMPOLICY\s+VOLUMEBINDINGMODE\s+ALLOWVOLUMEEXPANSION\s+AGE\nfast \(default\)\s+example\.com\/fast\s+Delete\s+Immediate\s+false\s+\d+s/,
    );
    const pv = await cluster.kubectl(["get", "pv"]);
    assert.match(
      pv.stdout,
      /^NAME\s+CAPACITY\s+ACCESS MODES\s+RECLAIM POLICY\s+STATUS\s+CLAIM\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+REASON\s+AGE\npv1\s+1Gi\s+RWO,ROX\s+Retain\s+Pending\s+manual\s+<unset>\s+\d+s/,
    );
    const pvc = await cluster.kubectl(["get", "pvc", "-o", "wide"]);
    assert.match(
      pvc.stdout,
      /^NAME\s+STATUS\s+VOLUME\s+CAPACITY\s+ACCESS MODES\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+AGE\s+VOLUMEMODE\ndata\s+Pending\s+manual\s+<unset>\s+\d+s\s+Filesystem/,
    );
  });

  test("validation reports kube's field paths", async () => {
    const result = await cluster.kubectl(["create", "-f", "-"], {
      input: `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: empty}
spec: {}
`,
    });
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /spec\.accessModes: Required value: at least 1 access mode is required/);
    assert.match(result.stderr, /spec\.resources\[storage\]: Required value/);
    const noSource = await cluster.kubectl(["create", "-f", "-"], {
      input:
        "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: bad}\nspec: {accessModes: [ReadWriteOnce]}\n",
    });
    assert.match(noSource.stderr, /spec\.capacity: Required value/);
    assert.match(noSource.stderr, /spec: Required value: must specify a volume type/);
  });

  test("a claim's spec is immutable except its storage request", async () => {
    const changed = await cluster.kubectl(["apply", "-f", "-"], {
      input: claim().replace("ReadWriteOnce", "ReadWriteMany"),
    });
    assert.notEqual(changed.code, 0);
    assert.match(changed.stderr, /spec: Forbidden: spec is immutable after creation/);
    const provisioner = await cluster.kubectl([
      "patch",
      "sc",
      "fast",
      "--type=merge",
      "-p",
      '{"provisioner":"other.example.com/x"}',
    ]);
    assert.match(provisioner.stderr, /provisioner: Forbidden: updates to provisioner are forbidden\./);
  });

  test("a claim without a class gets the default class; an explicit empty class stays empty", async () => {
    const second = storageClass.replace("name: fast", "name: zzz-later-default");
    assert.equal((await cluster.kubectl(["apply", "-f", "-"], { input: second })).code, 0);
    const plain = claim().replace("name: data", "name: plain").replace("  storageClassName: manual\n", "");
    assert.equal((await cluster.kubectl(["apply", "-f", "-"], { input: plain })).code, 0);
    const className = await cluster.kubectl([
      "get",
      "pvc",
      "plain",
      "-o",
      "jsonpath={.spec.storageClassName}",
    ]);
    // Both defaults were created within the same second: the first by name wins the tie.
    assert.ok(["fast", "zzz-later-default"].includes(className.stdout), className.stdout);
    const none = claim()
      .replace("name: data", "name: none")
      .replace("storageClassName: manual", 'storageClassName: ""');
    assert.equal((await cluster.kubectl(["apply", "-f", "-"], { input: none })).code, 0);
    const noneClass = await cluster.kubectl([
      "get",
      "pvc",
      "none",
      "-o",
      "jsonpath={.spec.storageClassName}",
    ]);
    assert.equal(noneClass.stdout, "");
  });

  test("claims and volumes get their protection finalizers at create, once", async () => {
    const claimFinalizers = await cluster.kubectl([
      "get",
      "pvc",
      "data",
      "-o",
      "jsonpath={.metadata.finalizers}",
    ]);
    assert.equal(claimFinalizers.stdout, '["kubernetes.io/pvc-protection"]');
    const volumeFinalizers = await cluster.kubectl([
      "get",
      "pv",
      "pv1",
      "-o",
      "jsonpath={.metadata.finalizers}",
    ]);
    assert.equal(volumeFinalizers.stdout, '["kubernetes.io/pv-protection"]');
    const relabelled = await cluster.kubectl(["label", "pvc", "data", "x=y"]);
    assert.equal(relabelled.code, 0, relabelled.stderr);
    const after = await cluster.kubectl(["get", "pvc", "data", "-o", "jsonpath={.metadata.finalizers}"]);
    assert.equal(after.stdout, '["kubernetes.io/pvc-protection"]');
  });

  test("a bound claim's request may grow (if its class allows expansion) but never shrink; an unbound claim's stays", async () => {
    const grow = (size: string) =>
      cluster.kubectl(["apply", "-f", "-"], { input: claim().replace("storage: 1Gi", `storage: ${size}`) });
    const unbound = await grow("2Gi");
    assert.notEqual(unbound.code, 0);
    assert.match(unbound.stderr, /spec: Forbidden: spec is immutable after creation/);
    const status = await cluster.kubectl([
      "patch",
      "pvc",
      "data",
      "--subresource=status",
      "--type=merge",
      "-p",
      '{"status":{"phase":"Bound"}}',
    ]);
    assert.equal(status.code, 0, status.stderr);
    // PersistentVolumeClaimResize: only a class that allows expansion lets a bound claim grow.
    const refused = await grow("2Gi");
    assert.notEqual(refused.code, 0);
    assert.match(
      refused.stderr,
      /persistentvolumeclaims "data" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize/,
    );
    const expandable = storageClass
      .replace("name: fast", "name: manual")
      .replace(/ {2}annotations: .*\n/, "")
      .concat("allowVolumeExpansion: true\n");
    assert.equal((await cluster.kubectl(["apply", "-f", "-"], { input: expandable })).code, 0);
    const grown = await grow("2Gi");
    assert.equal(grown.code, 0, grown.stderr);
    const shrink = await cluster.kubectl(["apply", "-f", "-"], {
      input: claim().replace("storage: 1Gi", "storage: 512Mi"),
    });
    assert.notEqual(shrink.code, 0);
    assert.match(
      shrink.stderr,
      /spec\.resources\.requests\.storage: Forbidden: field can not be less than previous value/,
    );
  });

  test("nodes read claims and volumes; edit writes claims but not volumes", async () => {
    const canI = (...args: string[]) => cluster.kubectl(["auth", "can-i", ...args]);
    const asNode = ["--as=system:node:node-a", "--as-group=system:nodes"];
    for (const verb of ["get", "list", "watch"]) {
      assert.equal((await canI(verb, "persistentvolumeclaims", "-A", ...asNode)).code, 0, verb);
      assert.equal((await canI(verb, "persistentvolumes", ...asNode)).code, 0, verb);
    }
    assert.notEqual((await canI("delete", "persistentvolumes", ...asNode)).code, 0);
    const bound = await cluster.kubectl([
      "create",
      "rolebinding",
      "dev-edit",
      "--clusterrole=edit",
      "--user=dev",
    ]);
    assert.equal(bound.code, 0, bound.stderr);
    assert.equal((await canI("create", "persistentvolumeclaims", "--as=dev")).code, 0);
    assert.notEqual((await canI("create", "persistentvolumes", "--as=dev")).code, 0);
  });

  test("kubectl describe and explain know the storage kinds", async () => {
    const described = await cluster.kubectl(["describe", "pvc", "data"]);
    assert.equal(described.code, 0, described.stderr);
    assert.match(described.stdout, /^StorageClass:\s+manual$/m);
    assert.match(described.stdout, /^Finalizers:\s+\[kubernetes\.io\/pvc-protection\]$/m);
    const volume = await cluster.kubectl(["describe", "pv", "pv1"]);
    assert.equal(volume.code, 0, volume.stderr);
    assert.match(volume.stdout, /^Reclaim Policy:\s+Retain$/m);
    const explained = await cluster.kubectl(["explain", "sc.volumeBindingMode"]);
    assert.equal(explained.code, 0, explained.stderr);
    assert.match(explained.stdout, /volumeBindingMode/);
  });
});
