// The provisioner's controllers against the real dev API server: claims handed to it get their
// directory and a pre-bound PV (Immediate, and WaitForFirstConsumer once a node is selected), a
// Block claim is refused, a Released PV of Delete loses its directory and the PV, and a restart
// between the two steps of either finishes the job.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { type CoreEvent, eventKind, KubeClient, type ResourceClient } from "../../runtime/index.js";
import {
  eventually,
  quietLog,
  startTestApiServer,
  type TestApiServer,
} from "../../test/harness/api-server-fixture.js";
import {
  LOCAL_PATH_PROVISIONER,
  type Node,
  nodeKind,
  type PersistentVolume,
  type PersistentVolumeClaim,
  PROVISIONED_BY_ANNOTATION,
  persistentVolumeClaimKind,
  persistentVolumeKind,
  SELECTED_NODE_ANNOTATION,
  storageClassKind,
} from "./kinds.js";
import { type RunningLocalPathProvisioner, startLocalPathProvisioner } from "./local-path-provisioner.js";
import { handedClaim, localPathClass, releaseVolume } from "./testing/storage-objects.js";

describe("local-path provisioner", () => {
  let api: TestApiServer;
  let client: KubeClient;
  let claims: ResourceClient<PersistentVolumeClaim>;
  let volumes: ResourceClient<PersistentVolume>;
  let provisioner: RunningLocalPathProvisioner | undefined;
  let baseDir: string;
  const start = async () => {
    provisioner = await startLocalPathProvisioner({
      kubeConfig: api.kubeConfig(),
      baseDir,
      nodeName: "node-a",
      log: quietLog,
    });
  };
  const volumeOf = (claim: PersistentVolumeClaim) =>
    eventually(`the PV of ${claim.metadata?.name}`, async () => {
      try {
        return await volumes.get({ name: `pvc-${claim.metadata?.uid}` });
      } catch {
        return undefined;
      }
    });
  const eventOf = (name: string, reason: string) =>
    eventually(`event ${reason} of ${name}`, async () => {
      const { items } = await client.resource(eventKind).list({ namespace: "default" });
      return items.find((event: CoreEvent) => event.involvedObject.name === name && event.reason === reason);
    });

  before(async () => {
    api = await startTestApiServer();
    client = KubeClient.fromKubeConfig(api.kubeConfig(), { fieldManager: "provisioner-test" });
    claims = client.resource(persistentVolumeClaimKind);
    volumes = client.resource(persistentVolumeKind);
    baseDir = mkdtempSync(join(tmpdir(), "kubevirt-ts-local-path-"));
    for (const [name, hostname] of [
      ["node-a", "host-a"],
      ["node-b", "host-b"],
    ] as const) {
      await client.resource(nodeKind).create({
        apiVersion: "v1",
        kind: "Node",
        metadata: { name, labels: { "kubernetes.io/hostname": hostname } },
      } as Node);
    }
    await client.resource(storageClassKind).create(localPathClass("fast", "Immediate"));
    await client.resource(storageClassKind).create(localPathClass("local-path", "WaitForFirstConsumer"));
    await start();
  });
  after(async () => {
    await provisioner?.stop();
    client?.close();
    await api?.close();
    rmSync(baseDir, { recursive: true, force: true });
  });

  test("an Immediate claim gets its directory and a PV pre-bound to it, on the provisioner's node", async () => {
    const claim = await claims.create(handedClaim("data", "fast"));
    const volume = await volumeOf(claim);
    const dir = join(baseDir, `pvc-${claim.metadata?.uid}_default_data`);
    assert.ok(existsSync(dir), "the directory is made");
    assert.equal(volume.metadata?.annotations?.[PROVISIONED_BY_ANNOTATION], LOCAL_PATH_PROVISIONER);
    assert.deepEqual(volume.spec?.claimRef, {
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      namespace: "default",
      name: "data",
      uid: claim.metadata?.uid,
      resourceVersion: claim.metadata?.resourceVersion,
    });
    assert.equal(volume.spec?.storageClassName, "fast");
    assert.deepEqual(volume.spec?.capacity, { storage: "1Gi" });
    assert.deepEqual(volume.spec?.accessModes, ["ReadWriteOnce"]);
    assert.equal(volume.spec?.volumeMode, "Filesystem");
    assert.equal(volume.spec?.persistentVolumeReclaimPolicy, "Delete");
    assert.deepEqual(volume.spec?.local, { path: dir });
    assert.deepEqual(volume.spec?.nodeAffinity?.required?.nodeSelectorTerms, [
      { matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: ["host-a"] }] },
    ]);
    await eventOf("data", "Provisioning");
    const succeeded = await eventOf("data", "ProvisioningSucceeded");
    assert.equal(succeeded.message, `Successfully provisioned volume pvc-${claim.metadata?.uid}`);
  });

  test("a WaitForFirstConsumer claim waits for its selected node, then goes there", async () => {
    const claim = await claims.create(handedClaim("later", "local-path"));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await assert.rejects(
      volumes.get({ name: `pvc-${claim.metadata?.uid}` }),
      "no PV without a selected node",
    );
    await claims.mergePatch(
      { namespace: "default", name: "later" },
      { metadata: { annotations: { [SELECTED_NODE_ANNOTATION]: "node-b" } } },
    );
    const volume = await volumeOf(claim);
    assert.deepEqual(
      volume.spec?.nodeAffinity?.required?.nodeSelectorTerms?.[0]?.matchExpressions?.[0]?.values,
      ["host-b"],
    );
  });

  test("a Block claim gets ProvisioningFailed and no PV", async () => {
    const claim = await claims.create(handedClaim("raw", "fast", { volumeMode: "Block" }));
    const failed = await eventOf("raw", "ProvisioningFailed");
    assert.equal(
      failed.message,
      'failed to provision volume with StorageClass "fast": the local-path provisioner supports volumeMode Filesystem only',
    );
    assert.equal(failed.type, "Warning");
    await assert.rejects(volumes.get({ name: `pvc-${claim.metadata?.uid}` }));
    assert.equal((await claims.get({ namespace: "default", name: "raw" })).status?.phase, "Pending");
  });

  test("a claim not handed to this provisioner is left alone", async () => {
    const claim = await claims.create({
      ...handedClaim("elsewhere", "fast"),
      metadata: {
        name: "elsewhere",
        namespace: "default",
        annotations: { [SELECTED_NODE_ANNOTATION]: "node-a" },
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await assert.rejects(volumes.get({ name: `pvc-${claim.metadata?.uid}` }));
  });

  test("a Released PV of reclaim Delete loses its directory, then the PV", async () => {
    const claim = await claims.create(handedClaim("gone", "fast"));
    const volume = await volumeOf(claim);
    const dir = volume.spec?.local?.path ?? "";
    writeFileSync(join(dir, "file"), "data");
    await releaseVolume(volumes, volume.metadata?.name ?? "");
    await eventually("the directory removed", () => (existsSync(dir) ? undefined : true));
    await eventually("the PV deleted", async () => {
      const left = await volumes.get({ name: volume.metadata?.name ?? "" }).catch(() => undefined);
      return !left || left.metadata?.deletionTimestamp ? true : undefined;
    });
  });

  test("a Released PV whose path is not one of its directories keeps its data", async () => {
    const outside = mkdtempSync(join(tmpdir(), "kubevirt-ts-not-a-volume-"));
    try {
      writeFileSync(join(outside, "keep"), "precious");
      const created = await volumes.create({
        apiVersion: "v1",
        kind: "PersistentVolume",
        metadata: { name: "forged", annotations: { [PROVISIONED_BY_ANNOTATION]: LOCAL_PATH_PROVISIONER } },
        spec: {
          capacity: { storage: "1Gi" },
          accessModes: ["ReadWriteOnce"],
          persistentVolumeReclaimPolicy: "Delete",
          storageClassName: "fast",
          local: { path: outside },
          nodeAffinity: {
            required: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: ["host-a"] }] },
              ],
            },
          },
        },
      });
      await releaseVolume(volumes, created.metadata?.name ?? "");
      const { items } = await eventually("a VolumeFailedDelete event", async () => {
        const list = await client.resource(eventKind).list({ namespace: "default" });
        return list.items.some(
          (event) => event.reason === "VolumeFailedDelete" && event.involvedObject.name === "forged",
        )
          ? list
          : undefined;
      });
      assert.ok(items.length > 0);
      assert.equal(readFileSync(join(outside, "keep"), "utf8"), "precious");
      assert.equal((await volumes.get({ name: "forged" })).metadata?.deletionTimestamp, undefined);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test("a restart finishes what a crash cut short: a directory without its PV, a PV without its directory", async () => {
    const released = await claims.create(handedClaim("half-deleted", "fast"));
    const releasedVolume = await volumeOf(released);
    await provisioner?.stop();
    provisioner = undefined;
    // Crash after mkdir, before the PV's create: the directory is there (with data), no PV.
    const claim = await claims.create(handedClaim("half-made", "fast"));
    const dir = join(baseDir, `pvc-${claim.metadata?.uid}_default_half-made`);
    mkdirSync(dir);
    writeFileSync(join(dir, "kept"), "yes");
    // Crash after rm, before the PV's delete.
    rmSync(releasedVolume.spec?.local?.path ?? "", { recursive: true });
    await releaseVolume(volumes, releasedVolume.metadata?.name ?? "");
    await start();
    const volume = await volumeOf(claim);
    assert.equal(volume.spec?.local?.path, dir);
    assert.equal(readFileSync(join(dir, "kept"), "utf8"), "yes", "the existing directory is the volume");
    await eventually("the released PV deleted", async () => {
      const left = await volumes.get({ name: releasedVolume.metadata?.name ?? "" }).catch(() => undefined);
      return !left || left.metadata?.deletionTimestamp ? true : undefined;
    });
  });
});
