// Secret volumes and kubelet hostPaths as a pod sees them on the agent's node: a missing Secret
// keeps the pod in ContainerCreating with kubelet's FailedMount until it exists; the payload has
// kubelet's atomic-writer links; a hostPath under /var/lib/kubelet is the agent's own directory.
import assert from "node:assert/strict";
import { lstatSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { eventKind, KubeClient } from "../../runtime/index.js";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { type Secret, secretKind } from "./kinds.js";
import {
  type AgentTestCluster,
  logRequest,
  readAll,
  startAgentTestCluster,
} from "./testing/agent-test-cluster.js";

describe("pod volumes", () => {
  let cluster: AgentTestCluster;
  let client: KubeClient;
  before(async () => {
    cluster = await startAgentTestCluster();
    client = KubeClient.fromKubeConfig(cluster.api.kubeConfig(), { fieldManager: "pod-volumes-test" });
  });
  after(async () => {
    client?.close();
    await cluster?.close();
  });

  test("a secret volume of a missing Secret waits in ContainerCreating with kubelet's FailedMount, then mounts", async () => {
    await cluster.createPod("needs-secret", {
      containers: [
        {
          name: "main",
          image: "test/sleep",
          volumeMounts: [
            { name: "ci-udata", mountPath: "/secret/userdata", subPath: "userdata", readOnly: true },
          ],
        },
      ],
      volumes: [{ name: "ci-udata", secret: { secretName: "later" } }],
    });
    const message = 'MountVolume.SetUp failed for volume "ci-udata" : secret "later" not found';
    const waiting = await cluster.waitForPod(
      "needs-secret",
      "ContainerCreating",
      (pod) => pod.status?.containerStatuses?.[0]?.state?.waiting?.message === message,
    );
    assert.equal(waiting.status?.containerStatuses?.[0]?.state?.waiting?.reason, "ContainerCreating");
    assert.equal(waiting.status?.phase, "Pending");
    await eventually("a FailedMount event", async () => {
      const { items } = await client.resource(eventKind).list({ namespace: "default" });
      return items.find(
        (event) =>
          event.reason === "FailedMount" &&
          event.involvedObject.name === "needs-secret" &&
          event.message === message,
      );
    });

    await client.resource(secretKind).create({
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "later", namespace: "default" },
      data: { userdata: Buffer.from("#cloud-config\n").toString("base64") },
    } as Secret);
    const running = await cluster.waitForPod(
      "needs-secret",
      "Running",
      (pod) => pod.status?.phase === "Running",
    );
    const dir = join(
      cluster.agentOptions.dataDir,
      "pods",
      running.metadata?.uid ?? "",
      "volumes",
      "kubernetes.io~secret",
      "ci-udata",
    );
    assert.equal(readlinkSync(join(dir, "userdata")), "..data/userdata", "a key links through ..data");
    assert.match(readlinkSync(join(dir, "..data")), /^\.\.\d{4}_\d{2}_\d{2}_\d{2}_\d{2}_\d{2}\.\d{9}$/);
    assert.ok(lstatSync(join(dir, readlinkSync(join(dir, "..data")), "userdata")).isFile());
    assert.equal(readFileSync(join(dir, "userdata"), "utf8"), "#cloud-config\n");
  });

  test("a hostPath /var/lib/kubelet/pods is the agent's own pods directory", async () => {
    await cluster.createPod("kubelet-reader", {
      restartPolicy: "Never",
      containers: [
        {
          name: "main",
          image: "test/sh",
          args: ['ls "$KUBEVIRT_TS_ROOT/var/lib/kubelet/pods/$KUBEVIRT_TS_POD_UID"'],
          volumeMounts: [{ name: "kubelet-pods", mountPath: "/var/lib/kubelet/pods", readOnly: true }],
        },
      ],
      volumes: [{ name: "kubelet-pods", hostPath: { path: "/var/lib/kubelet/pods", type: "Directory" } }],
    });
    const done = await cluster.waitForPod(
      "kubelet-reader",
      "Succeeded",
      (pod) => pod.status?.phase === "Succeeded",
    );
    const listing = await readAll(await cluster.agent?.logs.open(logRequest(done, "main")));
    assert.match(listing, /^agent-state\.json$/m, "its own pod directory, seen through the hostPath");
  });
});
