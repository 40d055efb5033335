import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { apply, kubectlOk } from "../testing/cluster-fixture.js";
import { claim, STORAGE_NS, StorageCluster, volume } from "../testing/storage-fixture.js";

describe("the PV controller releases and protects (dev API server, kubectl)", () => {
  let cluster: StorageCluster;

  before(async () => {
    cluster = await StorageCluster.start();
  });
  after(async () => cluster?.close());

  test("a Retain volume stays Released after its claim goes; Delete without a provisioner fails", async () => {
    await apply(
      cluster.api,
      volume("kept", "retained", "1Gi"),
      volume("doomed", "deleted", "1Gi", { persistentVolumeReclaimPolicy: "Delete" }),
    );
    await apply(cluster.api, claim("keeper", "retained"), claim("doomer", "deleted"));
    await Promise.all([cluster.claimPhase("keeper", "Bound"), cluster.claimPhase("doomer", "Bound")]);
    await kubectlOk(cluster.api, ["delete", "pvc", "keeper", "doomer", "-n", STORAGE_NS]);
    const kept = await cluster.volumePhase("kept", "Released");
    assert.equal(kept.spec?.claimRef?.name, "keeper");
    const doomed = await cluster.volumePhase("doomed", "Failed");
    assert.equal(
      doomed.status?.message,
      'error getting deleter volume plugin for volume "doomed": no deletable volume plugin matched',
    );
    const event = await cluster.eventWith("doomed", "VolumeFailedDelete");
    assert.equal(event.type, "Warning");
    const table = await kubectlOk(cluster.api, ["get", "pv", "kept"]);
    assert.match(table, /^kept\s+1Gi\s+RWO\s+Retain\s+Released\s+storage\/keeper\s+retained/m);
    // A Released volume is not in use: it may be deleted (pv-protection lets it go).
    await kubectlOk(cluster.api, ["delete", "pv", "kept"]);
  });

  test("a claim whose volume is gone is Lost", async () => {
    await apply(cluster.api, volume("vanishing", "lost", "1Gi"));
    await apply(cluster.api, claim("orphan", "lost"));
    await cluster.claimPhase("orphan", "Bound");
    await kubectlOk(cluster.api, ["delete", "pv", "vanishing", "--wait=false"]);
    // Bound, it is protected: it stays, Terminating, until its finalizer is taken off by hand.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const protectedVolume = await cluster.getVolume("vanishing");
    assert.ok(protectedVolume.metadata?.deletionTimestamp);
    assert.deepEqual(protectedVolume.metadata?.finalizers, ["kubernetes.io/pv-protection"]);
    await kubectlOk(cluster.api, [
      "patch",
      "pv",
      "vanishing",
      "--type=merge",
      "-p",
      '{"metadata":{"finalizers":null}}',
    ]);
    const lost = await cluster.claimPhase("orphan", "Lost");
    assert.equal(lost.status?.capacity, undefined);
    const event = await cluster.eventWith("orphan", "ClaimLost");
    assert.equal(event.message, "Bound claim has lost its PersistentVolume. Data on the volume is lost!");
  });

  test("pvc-protection keeps a claim while a scheduled pod uses it", async () => {
    await apply(cluster.api, volume("used", "protected", "1Gi"));
    await apply(cluster.api, claim("in-use", "protected"));
    await cluster.claimPhase("in-use", "Bound");
    await apply(cluster.api, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "user", namespace: STORAGE_NS },
      spec: {
        nodeName: "node-a",
        containers: [{ name: "c", image: "busybox" }],
        volumes: [{ name: "data", persistentVolumeClaim: { claimName: "in-use" } }],
      },
    });
    await kubectlOk(cluster.api, ["delete", "pvc", "in-use", "-n", STORAGE_NS, "--wait=false"]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const held = await cluster.getClaim("in-use");
    assert.ok(held.metadata?.deletionTimestamp);
    assert.match(
      await kubectlOk(cluster.api, ["get", "pvc", "in-use", "-n", STORAGE_NS]),
      /^in-use\s+Terminating\s+used/m,
    );
    await kubectlOk(cluster.api, ["delete", "pod", "user", "-n", STORAGE_NS, "--grace-period=0", "--force"]);
    await cluster.gone("claim in-use", () => cluster.getClaim("in-use"));
    await cluster.volumePhase("used", "Released");
  });
});
