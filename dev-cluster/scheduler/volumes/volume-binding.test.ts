import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Frozen } from "../../../runtime/index.js";
import type { Node, Pod } from "../kinds.js";
import { podRequest } from "../resources/pod-requests.js";
import { type Placement, schedulePod } from "../schedule-pod.js";
import { SchedulingCache } from "../scheduling-cache.js";
import { testNode, testPod } from "../testing/objects.js";
import { lookupOf, testClaim, testClass, testVolume } from "../testing/storage-objects.js";
import type { VolumeLookup } from "./pod-volume-claims.js";

const nodes = [testNode("a"), testNode("b"), testNode("c", { labels: { zone: "z2" } })];
const wffc = testClass("local-path", "WaitForFirstConsumer");
const immediate = testClass("fast", "Immediate");
const staticOnly = testClass("manual", "WaitForFirstConsumer", {
  provisioner: "kubernetes.io/no-provisioner",
});

function podWith(claims: string[], spec: Partial<NonNullable<Pod["spec"]>> = {}): Frozen<Pod> {
  return testPod("p", {
    volumes: claims.map((claimName, index) => ({ name: `v${index}`, persistentVolumeClaim: { claimName } })),
    ...spec,
  });
}

function place(pod: Frozen<Pod>, storage: VolumeLookup, on: Frozen<Node>[] = nodes): Placement {
  const cache = new SchedulingCache();
  for (const node of on) cache.setNode(node);
  return schedulePod(pod, podRequest(pod), cache.nodeInfos(), storage);
}

function fits(placement: Placement) {
  assert.equal(placement.kind, "fits", placement.kind === "unschedulable" ? placement.message : "");
  if (placement.kind !== "fits") throw new Error("unreachable");
  return placement;
}

function messageOf(placement: Placement): string {
  assert.equal(placement.kind, "unschedulable");
  return placement.kind === "unschedulable" ? placement.message : "";
}

const notHelpful = (n: number) =>
  `preemption: 0/${n} nodes are available: ${n} Preemption is not helpful for scheduling.`;

describe("VolumeBinding's PreFilter: claims that no node can help", () => {
  test("a missing claim, a claim being deleted, a Lost claim", () => {
    const storage = lookupOf({
      claims: [
        testClaim("going", { deleting: true }),
        testClaim("lost", { phase: "Lost", boundTo: "pv-gone" }),
      ],
      classes: [wffc],
    });
    assert.equal(
      messageOf(place(podWith(["data"]), storage)),
      `0/3 nodes are available: persistentvolumeclaim "data" not found. ${notHelpful(3)}`,
    );
    assert.equal(
      messageOf(place(podWith(["going"]), storage)),
      `0/3 nodes are available: persistentvolumeclaim "going" is being deleted. ${notHelpful(3)}`,
    );
    assert.match(
      messageOf(place(podWith(["lost"]), storage)),
      /persistentvolumeclaim "lost" bound to non-existent persistentvolume "pv-gone"\./,
    );
  });

  test("an unbound claim of an Immediate class, or of a class that does not exist, waits for the PV controller", () => {
    const storage = lookupOf({
      claims: [testClaim("now", { className: "fast" }), testClaim("classless", { className: "nowhere" })],
      classes: [immediate],
    });
    const expected = `0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. ${notHelpful(3)}`;
    assert.equal(messageOf(place(podWith(["now"]), storage)), expected);
    assert.equal(messageOf(place(podWith(["classless"]), storage)), expected);
  });

  test("a generic ephemeral volume's claim is named <pod>-<volume> and must be owned by the pod", () => {
    const pod = testPod("web", {
      volumes: [{ name: "scratch", ephemeral: { volumeClaimTemplate: { spec: {} } } }],
    });
    assert.match(
      messageOf(place(pod, lookupOf({}))),
      /waiting for ephemeral volume controller to create the persistentvolumeclaim "web-scratch"\./,
    );
    const foreign = lookupOf({ claims: [testClaim("web-scratch")], classes: [wffc] });
    assert.match(
      messageOf(place(pod, foreign)),
      /PVC default\/web-scratch was not created for pod default\/web/,
    );
  });
});

describe("VolumeBinding's Filter", () => {
  test("a bound claim's volume node affinity picks the node; other nodes report the conflict", () => {
    const claim = testClaim("data", { boundTo: "pv-b" });
    const storage = lookupOf({
      claims: [claim],
      volumes: [testVolume("pv-b", { node: "b", claim })],
      classes: [wffc],
    });
    const placement = fits(place(podWith(["data"]), storage));
    assert.equal(placement.nodeName, "b");
    assert.deepEqual(placement.volumes.staticBindings, []);
    assert.deepEqual(placement.volumes.dynamicProvisions, []);
    const elsewhere = podWith(["data"], { nodeSelector: { zone: "z2" } });
    assert.equal(
      messageOf(place(elsewhere, storage)),
      "0/3 nodes are available: 1 node(s) had volume node affinity conflict, " +
        `2 node(s) didn't match Pod's node affinity/selector. ${notHelpful(3)}`,
    );
    const pinnedAway = lookupOf({ claims: [claim], volumes: [testVolume("pv-b", { node: "x", claim })] });
    assert.equal(
      messageOf(place(podWith(["data"]), pinnedAway)),
      `0/3 nodes are available: 3 node(s) had volume node affinity conflict. ${notHelpful(3)}`,
    );
    assert.match(
      messageOf(place(podWith(["data"]), lookupOf({ claims: [claim] }))),
      /3 node\(s\) unavailable due to one or more pvc\(s\) bound to non-existent pv\(s\)\./,
    );
  });

  test("WaitForFirstConsumer: the smallest Available volume that fits, on a node it reaches", () => {
    const claim = testClaim("data", { className: "manual", storage: "1Gi" });
    const storage = lookupOf({
      claims: [claim],
      volumes: [
        testVolume("pv-c-big", { className: "manual", storage: "10Gi", node: "c" }),
        testVolume("pv-c-small", { className: "manual", storage: "2Gi", node: "c" }),
        testVolume("pv-a-tiny", { className: "manual", storage: "500Mi", node: "a" }),
        testVolume("pv-b-claimed", {
          className: "manual",
          storage: "1Gi",
          node: "b",
          claim: testClaim("other"),
        }),
      ],
      classes: [staticOnly],
    });
    const placement = fits(place(podWith(["data"]), storage));
    assert.equal(placement.nodeName, "c");
    assert.equal(placement.volumes.staticBindings[0]?.volume.metadata?.name, "pv-c-small");
    assert.equal(
      messageOf(place(podWith(["data"], { nodeSelector: { "kubernetes.io/hostname": "a" } }), storage)),
      "0/3 nodes are available: 1 node(s) didn't find available persistent volumes to bind, " +
        `2 node(s) didn't match Pod's node affinity/selector. ${notHelpful(3)}`,
    );
  });

  test("WaitForFirstConsumer: provisioned where the class allows; selected-node allows only that node", () => {
    const claim = testClaim("data");
    const placement = fits(place(podWith(["data"]), lookupOf({ claims: [claim], classes: [wffc] })));
    assert.equal(placement.nodeName, "a");
    assert.equal(placement.volumes.dynamicProvisions[0]?.metadata?.name, "data");
    const zoned = testClass("local-path", "WaitForFirstConsumer", {
      allowedTopologies: [{ matchLabelExpressions: [{ key: "zone", values: ["z2"] }] }],
    });
    assert.equal(
      fits(place(podWith(["data"]), lookupOf({ claims: [claim], classes: [zoned] }))).nodeName,
      "c",
    );
    const selected = testClaim("data", { annotations: { "volume.kubernetes.io/selected-node": "b" } });
    assert.equal(
      fits(place(podWith(["data"]), lookupOf({ claims: [selected], classes: [wffc] }))).nodeName,
      "b",
    );
    const gone = lookupOf({ claims: [selected], classes: [wffc] });
    assert.equal(
      messageOf(place(podWith(["data"]), gone, [testNode("a")])),
      `0/1 nodes are available: 1 node(s) didn't find available persistent volumes to bind. ${notHelpful(1)}`,
    );
  });

  test("two claims never get the same volume: the second is provisioned", () => {
    const first = testClaim("first", { storage: "1Gi" });
    const second = testClaim("second", { storage: "2Gi" });
    const storage = lookupOf({
      claims: [second, first],
      volumes: [testVolume("pv-a", { storage: "5Gi", node: "a" })],
      classes: [wffc],
    });
    const placement = fits(
      place(podWith(["second", "first"], { nodeSelector: { "kubernetes.io/hostname": "a" } }), storage),
    );
    // Smallest request first: "first" takes the one volume.
    assert.equal(placement.volumes.staticBindings[0]?.claim.metadata?.name, "first");
    assert.deepEqual(
      placement.volumes.dynamicProvisions.map((claim) => claim.metadata?.name),
      ["second"],
    );
  });

  test("a volume pre-bound to the claim decides the node, even where the class could provision", () => {
    const claim = testClaim("data");
    const storage = lookupOf({
      claims: [claim],
      volumes: [{ ...testVolume("pv-c", { node: "c", claim }), status: { phase: "Available" } }],
      classes: [wffc],
    });
    const placement = fits(place(podWith(["data"]), storage));
    assert.equal(placement.nodeName, "c");
    assert.equal(placement.volumes.staticBindings[0]?.volume.metadata?.name, "pv-c");
  });
});
