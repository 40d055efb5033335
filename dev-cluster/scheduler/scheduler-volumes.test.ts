import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { boundNode, podManifest, startTestCluster, type TestCluster } from "./testing/cluster.js";
import {
  claimManifest,
  classManifest,
  completeBinding,
  podWithClaims,
  provisionFor,
  scheduledCondition,
  selectedNode,
  setVolumePhase,
  volumeManifest,
} from "./testing/storage-manifests.js";

const capacity = { cpu: "2", memory: "4Gi", pods: "110" };
const twoNodes = [{ count: 2, namePrefix: "n-", capacity }];
const notHelpful = (n: number) =>
  `preemption: 0/${n} nodes are available: ${n} Preemption is not helpful for scheduling.`;

function conditionIs(cluster: TestCluster, pod: string, expected: string): Promise<string> {
  return eventually(`pod ${pod}: ${expected}`, async () => {
    const text = await scheduledCondition(cluster, pod);
    return text === expected ? text : undefined;
  });
}

function selectedNodeIs(cluster: TestCluster, claim: string, expected: string): Promise<string> {
  return eventually(`claim ${claim} selected for ${expected || "no node"}`, async () => {
    const node = await selectedNode(cluster, claim);
    return node === expected ? node || "none" : undefined;
  });
}

async function claimUid(cluster: TestCluster, claim: string): Promise<string> {
  return cluster.kubectlOut(["get", "pvc", claim, "-o", "jsonpath={.metadata.uid}"]);
}

describe("the scheduler's VolumeBinding against the dev API server", () => {
  test("claims no node can help say so in kube's words; binding one wakes its pod on the volume's node", async () => {
    const cluster = await startTestCluster(twoNodes);
    try {
      await cluster.startScheduler();
      await cluster.create(
        classManifest("fast", "Immediate"),
        claimManifest("fast-claim", "fast"),
        claimManifest("going", "fast", { finalizers: ["example.com/hold"] }),
      );
      await cluster.kubectlOut(["delete", "pvc", "going", "--wait=false"]);
      await cluster.create(
        podWithClaims("no-claim", ["nowhere"]),
        podWithClaims("deleting", ["going"]),
        podWithClaims("immediate", ["fast-claim"]),
      );
      await conditionIs(
        cluster,
        "no-claim",
        `Unschedulable: 0/2 nodes are available: persistentvolumeclaim "nowhere" not found. ${notHelpful(2)}`,
      );
      await conditionIs(
        cluster,
        "deleting",
        `Unschedulable: 0/2 nodes are available: persistentvolumeclaim "going" is being deleted. ${notHelpful(2)}`,
      );
      const immediate = `0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. ${notHelpful(2)}`;
      await conditionIs(cluster, "immediate", `Unschedulable: ${immediate}`);
      const described = await cluster.kubectlOut(["describe", "pod", "immediate"]);
      assert.match(described, /FailedScheduling/);
      assert.ok(described.includes(immediate), described);
      // The PV controller binds the claim to a volume on n-1 (n-0 would win the tie otherwise).
      await provisionFor(cluster, "fast-claim", "pv-fast", "n-1");
      await completeBinding(cluster, "fast-claim", "pv-fast");
      assert.equal(await boundNode(cluster, "immediate"), "n-1");
      // Kept off n-1 by its selector, a second user of the claim finds no node: n-0 has the conflict.
      await cluster.create(
        podWithClaims("elsewhere", ["fast-claim"], { nodeSelector: { "kubernetes.io/hostname": "n-0" } }),
      );
      await conditionIs(
        cluster,
        "elsewhere",
        "Unschedulable: 0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, " +
          `1 node(s) had volume node affinity conflict. ${notHelpful(2)}`,
      );
      // Creating the missing claim wakes its pod at once (not after the 5 minute retry).
      await cluster.create(claimManifest("nowhere", "fast"));
      await conditionIs(cluster, "no-claim", `Unschedulable: ${immediate}`);
    } finally {
      await cluster.close();
    }
  });

  test("a bound volume no node reaches is a conflict on every node, until its node appears", async () => {
    const cluster = await startTestCluster(twoNodes);
    try {
      await cluster.startScheduler();
      await cluster.create(classManifest("fast", "Immediate"), claimManifest("pinned", "fast"));
      await provisionFor(cluster, "pinned", "pv-late", "late-0");
      await completeBinding(cluster, "pinned", "pv-late");
      await cluster.create(podWithClaims("pinned", ["pinned"]), podManifest("plain"));
      await conditionIs(
        cluster,
        "pinned",
        `Unschedulable: 0/2 nodes are available: 2 node(s) had volume node affinity conflict. ${notHelpful(2)}`,
      );
      assert.equal(await boundNode(cluster, "plain"), "n-0");
      await cluster.addNodes([{ count: 1, namePrefix: "late-", capacity }]);
      assert.equal(await boundNode(cluster, "pinned"), "late-0");
    } finally {
      await cluster.close();
    }
  });

  test("WaitForFirstConsumer: selected-node first, the pod bound only once its claim is, across a restart", async () => {
    const cluster = await startTestCluster(twoNodes);
    try {
      const first = await cluster.startScheduler();
      await cluster.create(
        classManifest("local-path", "WaitForFirstConsumer"),
        claimManifest("data", "local-path"),
      );
      await cluster.create(podWithClaims("consumer", ["data"]));
      await selectedNodeIs(cluster, "data", "n-0");
      await sleep(1500);
      assert.equal(await cluster.nodeOf("consumer"), "", "the pod waits for its claim");
      // Restarted while the claim is being provisioned, with n-0 now the busier node: the
      // annotation, not the score, decides.
      await first.stop();
      await cluster.create(podManifest("hog", { nodeName: "n-0" }, { cpu: "1500m" }));
      await cluster.startScheduler();
      await cluster.create(claimManifest("fresh", "local-path"), podWithClaims("fresh", ["fresh"]));
      await selectedNodeIs(cluster, "fresh", "n-1");
      assert.equal(await cluster.nodeOf("consumer"), "");
      assert.equal(await selectedNode(cluster, "data"), "n-0");
      // The provisioner and the PV controller do their part.
      await provisionFor(cluster, "data", `pvc-${await claimUid(cluster, "data")}`, "n-0");
      await completeBinding(cluster, "data", `pvc-${await claimUid(cluster, "data")}`);
      assert.equal(await boundNode(cluster, "consumer"), "n-0");
      const events = await cluster.kubectlOut([
        "get",
        "events",
        "--field-selector",
        "involvedObject.name=consumer",
      ]);
      assert.match(events, /Successfully assigned default\/consumer to n-0/);
    } finally {
      await cluster.close();
    }
  });

  test("WaitForFirstConsumer: a matching Available volume is pre-bound by claimRef, and decides the node", async () => {
    const cluster = await startTestCluster(twoNodes);
    try {
      await cluster.startScheduler();
      await cluster.create(
        classManifest("manual", "WaitForFirstConsumer", "kubernetes.io/no-provisioner"),
        volumeManifest("pv-static", "manual", "n-1"),
      );
      await setVolumePhase(cluster, "pv-static", "Available");
      await cluster.create(
        claimManifest("static-claim", "manual"),
        podWithClaims("static-consumer", ["static-claim"]),
      );
      const uid = await claimUid(cluster, "static-claim");
      const claimRef = await eventually("pv-static pre-bound", async () => {
        const text = await cluster.kubectlOut([
          "get",
          "pv",
          "pv-static",
          "-o",
          "jsonpath={.spec.claimRef.name}/{.spec.claimRef.uid} {.metadata.annotations.pv\\.kubernetes\\.io/bound-by-controller}",
        ]);
        return text.startsWith("static-claim/") ? text : undefined;
      });
      assert.equal(claimRef, `static-claim/${uid} yes`);
      assert.equal(await selectedNode(cluster, "static-claim"), "", "a static binding selects no node");
      await sleep(1200);
      assert.equal(await cluster.nodeOf("static-consumer"), "");
      await completeBinding(cluster, "static-claim", "pv-static");
      assert.equal(await boundNode(cluster, "static-consumer"), "n-1");
    } finally {
      await cluster.close();
    }
  });

  test("a provisioner that gives up (annotation removed) gets the pod scheduled again; a timeout fails the cycle", async () => {
    const cluster = await startTestCluster(twoNodes);
    try {
      await cluster.startScheduler({ volumeBindTimeoutMs: 2500 });
      await cluster.create(
        classManifest("local-path", "WaitForFirstConsumer"),
        claimManifest("flaky", "local-path"),
      );
      await cluster.create(podWithClaims("flaky", ["flaky"]));
      await selectedNodeIs(cluster, "flaky", "n-0");
      await cluster.kubectlOut(["annotate", "pvc", "flaky", "volume.kubernetes.io/selected-node-"]);
      await conditionIs(
        cluster,
        "flaky",
        'SchedulerError: running PreBind plugin "VolumeBinding": binding volumes: selectedNode annotation reset for PVC "flaky"',
      );
      // Placed anew after the backoff.
      await selectedNodeIs(cluster, "flaky", "n-0");
      await conditionIs(
        cluster,
        "flaky",
        'SchedulerError: running PreBind plugin "VolumeBinding": binding volumes: context deadline exceeded',
      );
      assert.equal(await cluster.nodeOf("flaky"), "");
    } finally {
      await cluster.close();
    }
  });
});
