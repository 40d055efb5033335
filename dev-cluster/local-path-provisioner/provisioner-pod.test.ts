// The provisioner as `dev-cluster up` runs it: its objects installed, its pod run by the node
// agent from the agent's built-in image (in-cluster credentials of its service account, the
// hostPath base directory, NODE_NAME), provisioning a claim whose directory a second pod writes
// into, and deleting it again once the PV is Released.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { KubeClient, type ResourceClient } from "../../runtime/index.js";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { podKind } from "../node-agent/kinds.js";
import { type AgentTestCluster, startAgentTestCluster } from "../node-agent/testing/agent-test-cluster.js";
import {
  installLocalPathStorage,
  LOCAL_PATH_PROVISIONER_IMAGE_KEY,
  LOCAL_PATH_STORAGE_NAMESPACE,
  provisionerDeployment,
} from "./install-objects.js";
import {
  nodeKind,
  type PersistentVolume,
  type PersistentVolumeClaim,
  persistentVolumeClaimKind,
  persistentVolumeKind,
  SELECTED_NODE_ANNOTATION,
  storageClassKind,
} from "./kinds.js";
import { bindClaim, handedClaim, releaseVolume } from "./testing/storage-objects.js";

const provisionerMain = fileURLToPath(new URL("./main.js", import.meta.url));

describe("the local-path provisioner's pod", () => {
  let cluster: AgentTestCluster;
  let client: KubeClient;
  let claims: ResourceClient<PersistentVolumeClaim>;
  let volumes: ResourceClient<PersistentVolume>;
  let baseDir: string;
  before(async () => {
    cluster = await startAgentTestCluster({ withoutAgent: true });
    cluster.agentOptions.builtInImages = {
      [LOCAL_PATH_PROVISIONER_IMAGE_KEY]: { command: [process.execPath, provisionerMain] },
    };
    await cluster.startAgent();
    client = KubeClient.fromKubeConfig(cluster.api.kubeConfig(), { fieldManager: "provisioner-pod-test" });
    claims = client.resource(persistentVolumeClaimKind);
    volumes = client.resource(persistentVolumeKind);
    baseDir = join(cluster.dataDir, "local-path");
    await client
      .resource(nodeKind)
      .mergePatch(
        { name: cluster.nodeName },
        { metadata: { labels: { "kubernetes.io/hostname": cluster.nodeName } } },
      );
  });
  after(async () => {
    const pods = client?.resource(podKind);
    await pods
      ?.delete({ namespace: LOCAL_PATH_STORAGE_NAMESPACE, name: "provisioner" })
      .catch(() => undefined);
    await eventually("the provisioner's pod gone", async () =>
      (await pods
        ?.get({ namespace: LOCAL_PATH_STORAGE_NAMESPACE, name: "provisioner" })
        .catch(() => undefined))
        ? undefined
        : true,
    ).catch(() => undefined);
    client?.close();
    await cluster?.close();
  });

  test("installing twice leaves one default class, the class local, and the provisioner's objects", async () => {
    const settings = { baseDir, nodeName: cluster.nodeName };
    await installLocalPathStorage(client, settings);
    await installLocalPathStorage(client, settings);
    const storageClass = await client.resource(storageClassKind).get({ name: "local-path" });
    assert.equal(storageClass.metadata?.annotations?.["storageclass.kubernetes.io/is-default-class"], "true");
    assert.equal(storageClass.provisioner, "kubevirt-ts.io/local-path");
    assert.equal(storageClass.volumeBindingMode, "WaitForFirstConsumer");
    assert.equal(storageClass.reclaimPolicy, "Delete");
    // KubeVirt's examples' class: the same provisioner and modes, and not a second default.
    const local = await client.resource(storageClassKind).get({ name: "local" });
    assert.equal(local.metadata?.annotations?.["storageclass.kubernetes.io/is-default-class"], undefined);
    assert.equal(local.provisioner, "kubevirt-ts.io/local-path");
    assert.equal(local.volumeBindingMode, "WaitForFirstConsumer");
    assert.equal(local.reclaimPolicy, "Delete");
    const review = await cluster.api.kubectl([
      "auth",
      "can-i",
      "create",
      "persistentvolumes",
      `--as=system:serviceaccount:${LOCAL_PATH_STORAGE_NAMESPACE}:local-path-provisioner`,
    ]);
    assert.equal(review.stdout.trim(), "yes");
    const denied = await cluster.api.kubectl([
      "auth",
      "can-i",
      "delete",
      "persistentvolumeclaims",
      `--as=system:serviceaccount:${LOCAL_PATH_STORAGE_NAMESPACE}:local-path-provisioner`,
    ]);
    assert.equal(denied.stdout.trim(), "no");
  });

  test("its pod provisions a claim that another pod writes into, and removes it once Released", async () => {
    // The Deployment's pod, as the scheduler would bind it (the test cluster runs no controllers).
    const template = provisionerDeployment({ baseDir, nodeName: cluster.nodeName }).spec?.template;
    await client.resource(podKind).create({
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        name: "provisioner",
        namespace: LOCAL_PATH_STORAGE_NAMESPACE,
        labels: template?.metadata?.labels,
      },
      spec: { ...template?.spec, containers: template?.spec?.containers ?? [], nodeName: cluster.nodeName },
    });
    const claim = await claims.create(
      handedClaim("data", "local-path", { annotations: { [SELECTED_NODE_ANNOTATION]: cluster.nodeName } }),
    );
    const volumeName = `pvc-${claim.metadata?.uid}`;
    const volume = await eventually(
      "the PV the pod makes",
      () => volumes.get({ name: volumeName }).catch(() => undefined),
      30_000,
    );
    const dir = join(baseDir, `pvc-${claim.metadata?.uid}_default_data`);
    assert.equal(volume.spec?.local?.path, dir);
    assert.ok(existsSync(dir));

    await bindClaim(claims, volumes, { namespace: "default", name: "data" }, volumeName);
    await cluster.createPod("writer", {
      restartPolicy: "Never",
      containers: [
        {
          name: "main",
          image: "test/sh",
          args: ['echo hello > "$KUBEVIRT_TS_ROOT/data/greeting"'],
          volumeMounts: [{ name: "data", mountPath: "/data" }],
        },
      ],
      volumes: [{ name: "data", persistentVolumeClaim: { claimName: "data" } }],
    });
    await cluster.waitForPod("writer", "Succeeded", (pod) => pod.status?.phase === "Succeeded");
    assert.equal(readFileSync(join(dir, "greeting"), "utf8"), "hello\n");

    await releaseVolume(volumes, volumeName);
    await eventually("the directory removed by the pod", () => (existsSync(dir) ? undefined : true), 30_000);
    await eventually("the PV deleted", async () => {
      const left = await volumes.get({ name: volumeName }).catch(() => undefined);
      return !left || left.metadata?.deletionTimestamp ? true : undefined;
    });
  });
});
