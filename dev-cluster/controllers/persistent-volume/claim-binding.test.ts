import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eventually } from "../../../test/harness/api-server-fixture.js";
import { apply, kubectlOk } from "../testing/cluster-fixture.js";
import {
  claim,
  FAKE_PROVISIONER,
  STORAGE_NS,
  StorageCluster,
  storageClass,
  volume,
} from "../testing/storage-fixture.js";

describe("the PV controller binds claims (dev API server, kubectl)", () => {
  let cluster: StorageCluster;

  before(async () => {
    cluster = await StorageCluster.start();
  });
  after(async () => cluster?.close());

  test("static binding picks the smallest Available volume that fits, and kubectl shows the binding", async () => {
    await apply(
      cluster.api,
      volume("static-small", "manual", "1Gi"),
      volume("static-big", "manual", "5Gi"),
      volume("static-mid", "manual", "3Gi"),
    );
    await cluster.volumePhase("static-small", "Available");
    await apply(cluster.api, claim("static", "manual", "2Gi"));
    const bound = await cluster.claimPhase("static", "Bound");
    assert.equal(bound.spec?.volumeName, "static-mid");
    assert.equal(bound.metadata?.annotations?.["pv.kubernetes.io/bind-completed"], "yes");
    assert.equal(bound.metadata?.annotations?.["pv.kubernetes.io/bound-by-controller"], "yes");
    assert.deepEqual(bound.status?.capacity, { storage: "3Gi" });
    const pv = await cluster.volumePhase("static-mid", "Bound");
    assert.equal(pv.spec?.claimRef?.uid, bound.metadata?.uid);
    assert.equal(pv.metadata?.annotations?.["pv.kubernetes.io/bound-by-controller"], "yes");
    const table = await kubectlOk(cluster.api, ["get", "pvc", "static", "-n", STORAGE_NS]);
    assert.match(table, /^static\s+Bound\s+static-mid\s+3Gi\s+RWO\s+manual\s+<unset>\s+\d+s$/m);
    const pvTable = await kubectlOk(cluster.api, ["get", "pv", "static-mid"]);
    assert.match(
      pvTable,
      /^static-mid\s+3Gi\s+RWO\s+Retain\s+Bound\s+storage\/static\s+manual\s+<unset>\s+\d+s$/m,
    );
  });

  test("a claim naming its volume gets that one, and two claims never share a volume", async () => {
    await apply(cluster.api, volume("named", "manual", "1Gi"));
    await apply(
      cluster.api,
      claim("named", "manual", "1Gi", { volumeName: "named" }),
      claim("rival-1", "manual", "1Gi"),
      claim("rival-2", "manual", "1Gi"),
    );
    const named = await cluster.claimPhase("named", "Bound");
    assert.equal(named.spec?.volumeName, "named");
    assert.equal(named.metadata?.annotations?.["pv.kubernetes.io/bound-by-controller"], undefined);
    // static-small and static-big are left for two rivals that both prefer static-small: each gets its own.
    const [one, two] = await Promise.all([
      cluster.claimPhase("rival-1", "Bound"),
      cluster.claimPhase("rival-2", "Bound"),
    ]);
    assert.deepEqual([one.spec?.volumeName, two.spec?.volumeName].sort(), ["static-big", "static-small"]);
    // Six claims race for three volumes: three bind, to three different volumes, and three wait.
    await apply(
      cluster.api,
      ...["r1", "r2", "r3"].map((name) => volume(`race-${name}`, "race", "1Gi")),
      ...[1, 2, 3, 4, 5, 6].map((n) => claim(`racer-${n}`, "race")),
    );
    const boundRacers = await eventually(
      "three racers bound",
      async () => {
        const list = await cluster.claims.list({ namespace: STORAGE_NS });
        const racers = list.items.filter(
          (c) => c.metadata?.name?.startsWith("racer-") && c.status?.phase === "Bound",
        );
        return racers.length === 3 ? racers : undefined;
      },
      10_000,
    );
    assert.equal(new Set(boundRacers.map((c) => c.spec?.volumeName)).size, 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const raceVolumes = (await cluster.volumes.list()).items.filter((v) =>
      v.metadata?.name?.startsWith("race-"),
    );
    const claimants = raceVolumes.map((v) => v.spec?.claimRef?.name);
    assert.equal(new Set(claimants).size, 3, `claimants: ${claimants.join(",")}`);
    const stillPending = (await cluster.claims.list({ namespace: STORAGE_NS })).items.filter(
      (c) => c.metadata?.name?.startsWith("racer-") && c.status?.phase !== "Bound",
    );
    assert.equal(stillPending.length, 3);
  });

  test("an Immediate class hands the claim to its provisioner, and its pre-bound volume completes the bind", async () => {
    await apply(cluster.api, storageClass("fake-immediate", "Immediate"));
    await apply(cluster.api, claim("dynamic", "fake-immediate"));
    const annotated = await eventually(
      "the provisioner annotations",
      async () => {
        const found = await cluster.getClaim("dynamic");
        return found.metadata?.annotations?.["volume.kubernetes.io/storage-provisioner"] ? found : undefined;
      },
      10_000,
    );
    assert.equal(
      annotated.metadata?.annotations?.["volume.beta.kubernetes.io/storage-provisioner"],
      FAKE_PROVISIONER,
    );
    const event = await cluster.eventWith("dynamic", "ExternalProvisioning");
    assert.match(event.message, /external provisioner 'example\.com\/fake'/);
    // What the provisioner would do: a volume pre-bound to the claim, uid included.
    const uid = annotated.metadata?.uid ?? "";
    await apply(cluster.api, {
      ...volume(`pvc-${uid}`, "fake-immediate", "1Gi", {
        persistentVolumeReclaimPolicy: "Delete",
        claimRef: {
          apiVersion: "v1",
          kind: "PersistentVolumeClaim",
          namespace: STORAGE_NS,
          name: "dynamic",
          uid,
        },
      }),
      metadata: { name: `pvc-${uid}`, annotations: { "pv.kubernetes.io/provisioned-by": FAKE_PROVISIONER } },
    });
    const bound = await cluster.claimPhase("dynamic", "Bound");
    assert.equal(bound.spec?.volumeName, `pvc-${uid}`);
    const pv = await cluster.volumePhase(`pvc-${uid}`, "Bound");
    assert.equal(pv.metadata?.annotations?.["pv.kubernetes.io/bound-by-controller"], undefined);

    // Deleted, the claim releases its volume, which waits for its provisioner to delete it.
    await kubectlOk(cluster.api, ["delete", "pvc", "dynamic", "-n", STORAGE_NS, "--wait=false"]);
    await cluster.gone("claim dynamic", () => cluster.getClaim("dynamic"));
    await cluster.volumePhase(`pvc-${uid}`, "Released");
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await cluster.getVolume(`pvc-${uid}`)).status?.phase, "Released");
    await kubectlOk(cluster.api, ["delete", "pv", `pvc-${uid}`, "--wait=false"]);
    await cluster.gone("its volume", () => cluster.getVolume(`pvc-${uid}`));
  });

  test("a WaitForFirstConsumer class waits for the selected node before provisioning", async () => {
    await apply(cluster.api, storageClass("fake-wffc", "WaitForFirstConsumer"));
    await apply(cluster.api, claim("late", "fake-wffc"));
    const event = await cluster.eventWith("late", "WaitForFirstConsumer");
    assert.equal(event.message, "waiting for first consumer to be created before binding");
    assert.equal(
      (await cluster.getClaim("late")).metadata?.annotations?.["volume.kubernetes.io/storage-provisioner"],
      undefined,
    );
    await kubectlOk(cluster.api, [
      "annotate",
      "pvc",
      "late",
      "-n",
      STORAGE_NS,
      "volume.kubernetes.io/selected-node=node-a",
    ]);
    const annotated = await eventually(
      "the provisioner annotation",
      async () => {
        const found = await cluster.getClaim("late");
        return found.metadata?.annotations?.["volume.kubernetes.io/storage-provisioner"] ? found : undefined;
      },
      10_000,
    );
    assert.equal(
      annotated.metadata?.annotations?.["volume.kubernetes.io/storage-provisioner"],
      FAKE_PROVISIONER,
    );
    assert.equal(annotated.status?.phase, "Pending");
  });

  test("a WaitForFirstConsumer claim names the pods that wait to be scheduled", async () => {
    await apply(cluster.api, claim("awaited", "fake-wffc"));
    await apply(cluster.api, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "consumer", namespace: STORAGE_NS },
      spec: {
        containers: [{ name: "c", image: "busybox" }],
        volumes: [{ name: "data", persistentVolumeClaim: { claimName: "awaited" } }],
      },
    });
    const event = await cluster.eventWith("awaited", "WaitForPodScheduled");
    assert.equal(event.message, "waiting for pod consumer to be scheduled");
  });

  test("a WaitForFirstConsumer claim binds a static volume only on a node its affinity allows", async () => {
    await apply(cluster.api, storageClass("local", "WaitForFirstConsumer", "kubernetes.io/no-provisioner"));
    const onNodeB = {
      required: {
        nodeSelectorTerms: [
          { matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: ["node-b"] }] },
        ],
      },
    };
    await apply(
      cluster.api,
      volume("local-b", "local", "1Gi", {
        nodeAffinity: onNodeB,
        hostPath: undefined,
        local: { path: "/tmp/local-b" },
      }),
    );
    await cluster.volumePhase("local-b", "Available");
    await apply(cluster.api, claim("local-claim", "local"));
    await cluster.eventWith("local-claim", "WaitForFirstConsumer");
    await kubectlOk(cluster.api, [
      "annotate",
      "pvc",
      "local-claim",
      "-n",
      STORAGE_NS,
      "volume.kubernetes.io/selected-node=node-a",
    ]);
    const failed = await cluster.eventWith("local-claim", "ProvisioningFailed");
    assert.equal(failed.message, "no volume plugin matched name: kubernetes.io/no-provisioner");
    assert.equal((await cluster.getClaim("local-claim")).status?.phase, "Pending");
    await kubectlOk(cluster.api, [
      "annotate",
      "--overwrite",
      "pvc",
      "local-claim",
      "-n",
      STORAGE_NS,
      "volume.kubernetes.io/selected-node=node-b",
    ]);
    const bound = await cluster.claimPhase("local-claim", "Bound");
    assert.equal(bound.spec?.volumeName, "local-b");
  });

  test("a claim created before any default class gets the default once one appears", async () => {
    const classless = claim("classless", "manual");
    delete (classless.spec as { storageClassName?: string }).storageClassName;
    await apply(cluster.api, classless);
    await cluster.eventWith("classless", "FailedBinding");
    assert.equal((await cluster.getClaim("classless")).spec?.storageClassName, undefined);
    await apply(cluster.api, {
      ...storageClass("cluster-default", "WaitForFirstConsumer"),
      metadata: {
        name: "cluster-default",
        annotations: { "storageclass.kubernetes.io/is-default-class": "true" },
      },
    });
    const classed = await eventually(
      "the default class on the claim",
      async () => {
        const found = await cluster.getClaim("classless");
        return found.spec?.storageClassName ? found : undefined;
      },
      10_000,
    );
    assert.equal(classed.spec?.storageClassName, "cluster-default");
    await cluster.eventWith("classless", "WaitForFirstConsumer");
  });

  test("a bind half done when the controllers stopped is finished after their restart", async () => {
    await cluster.controllers?.stop();
    await apply(cluster.api, claim("interrupted", "restart"));
    const uid = (await cluster.getClaim("interrupted")).metadata?.uid ?? "";
    // The state after the first of the four binding writes: the volume points at the claim.
    await apply(
      cluster.api,
      volume("interrupted", "restart", "1Gi", {
        claimRef: {
          apiVersion: "v1",
          kind: "PersistentVolumeClaim",
          namespace: STORAGE_NS,
          name: "interrupted",
          uid,
        },
      }),
    );
    await cluster.startControllers();
    const bound = await cluster.claimPhase("interrupted", "Bound");
    assert.equal(bound.spec?.volumeName, "interrupted");
    await cluster.volumePhase("interrupted", "Bound");
  });
});
