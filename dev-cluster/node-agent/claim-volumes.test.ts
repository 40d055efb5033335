// persistentVolumeClaim volumes on the agent's node: a pod whose claim is missing or unbound, or
// whose PV's node affinity excludes the node, waits in ContainerCreating with kubelet's message;
// once the claim is bound to a local PV, the container's writes land in the PV's directory.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { eventKind, KubeClient, type ResourceClient } from "../../runtime/index.js";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { bindClaim } from "../local-path-provisioner/testing/storage-objects.js";
import {
  nodeKind,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
  persistentVolumeClaimKind,
  persistentVolumeKind,
} from "./kinds.js";
import { type AgentTestCluster, startAgentTestCluster } from "./testing/agent-test-cluster.js";

describe("claim volumes", () => {
  let cluster: AgentTestCluster;
  let client: KubeClient;
  let claims: ResourceClient<PersistentVolumeClaim>;
  let volumes: ResourceClient<PersistentVolume>;
  const volumeDir = mkdtempSync(join(tmpdir(), "kubevirt-ts-claim-volume-"));
  const waitingMessage = (pod: Pod) => pod.status?.containerStatuses?.[0]?.state?.waiting?.message ?? "";
  const createClaim = (name: string) =>
    claims.create({
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name, namespace: "default" },
      spec: {
        storageClassName: "",
        accessModes: ["ReadWriteOnce"],
        resources: { requests: { storage: "1Gi" } },
      },
    });
  const createVolume = (name: string, claim: PersistentVolumeClaim, hostname: string) =>
    volumes.create({
      apiVersion: "v1",
      kind: "PersistentVolume",
      metadata: { name },
      spec: {
        capacity: { storage: "1Gi" },
        accessModes: ["ReadWriteOnce"],
        storageClassName: "",
        claimRef: {
          apiVersion: "v1",
          kind: "PersistentVolumeClaim",
          namespace: "default",
          name: claim.metadata?.name ?? "",
          uid: claim.metadata?.uid ?? "",
        },
        local: { path: volumeDir },
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: [hostname] }] },
            ],
          },
        },
      },
    });
  const podUsing = (name: string, claimName: string, script: string) =>
    cluster.createPod(name, {
      restartPolicy: "Never",
      containers: [
        {
          name: "main",
          image: "test/sh",
          args: [script],
          volumeMounts: [{ name: "data", mountPath: "/data" }],
        },
      ],
      volumes: [{ name: "data", persistentVolumeClaim: { claimName } }],
    });

  before(async () => {
    cluster = await startAgentTestCluster();
    client = KubeClient.fromKubeConfig(cluster.api.kubeConfig(), { fieldManager: "claim-volumes-test" });
    claims = client.resource(persistentVolumeClaimKind);
    volumes = client.resource(persistentVolumeKind);
    await client
      .resource(nodeKind)
      .mergePatch(
        { name: cluster.nodeName },
        { metadata: { labels: { "kubernetes.io/hostname": cluster.nodeName } } },
      );
  });
  after(async () => {
    client?.close();
    await cluster?.close();
    rmSync(volumeDir, { recursive: true, force: true });
  });

  test("a pod whose claim is missing waits with kubelet's message", async () => {
    await podUsing("no-claim", "nothing", "true");
    const message =
      "Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[], failed to process volumes=[data]: " +
      'error processing PVC default/nothing: failed to fetch PVC from API server: persistentvolumeclaims "nothing" not found';
    const pod = await cluster.waitForPod(
      "no-claim",
      "ContainerCreating",
      (p) => waitingMessage(p) === message,
    );
    assert.equal(pod.status?.phase, "Pending");
    await eventually("a FailedMount event", async () => {
      const { items } = await client.resource(eventKind).list({ namespace: "default" });
      return items.find(
        (event) => event.reason === "FailedMount" && event.involvedObject.name === "no-claim",
      );
    });
  });

  test("a pod waits while its claim is unbound and starts once it is bound; its writes land in the PV's directory", async () => {
    const claim = await createClaim("data");
    await podUsing(
      "writer",
      "data",
      'echo written > "$KUBEVIRT_TS_VOLUME_DATA/by-env" && echo too > "$KUBEVIRT_TS_ROOT/data/by-path"',
    );
    await cluster.waitForPod("writer", "waiting for the claim", (pod) =>
      waitingMessage(pod).endsWith("error processing PVC default/data: PVC is not bound"),
    );
    await createVolume("pv-here", claim, cluster.nodeName);
    await bindClaim(claims, volumes, { namespace: "default", name: "data" }, "pv-here");
    const done = await cluster.waitForPod("writer", "Succeeded", (pod) => pod.status?.phase === "Succeeded");
    assert.equal(readFileSync(join(volumeDir, "by-env"), "utf8"), "written\n");
    assert.equal(readFileSync(join(volumeDir, "by-path"), "utf8"), "too\n");
    const link = join(
      cluster.agentOptions.dataDir,
      "pods",
      done.metadata?.uid ?? "",
      "volumes",
      "kubernetes.io~local-volume",
      "pv-here",
    );
    assert.equal(readlinkSync(link), volumeDir, "laid out as kubelet lays out a local volume");
  });

  test("a PV whose node affinity excludes the node is not mounted", async () => {
    const claim = await createClaim("far");
    await createVolume("pv-far", claim, "another-node");
    await bindClaim(claims, volumes, { namespace: "default", name: "far" }, "pv-far");
    await podUsing("far-reader", "far", "true");
    await cluster.waitForPod(
      "far-reader",
      "node affinity refused",
      (pod) =>
        waitingMessage(pod) ===
        'MountVolume.NodeAffinity check failed for volume "pv-far" : no matching NodeSelectorTerms',
    );
  });
});
