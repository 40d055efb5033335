import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Frozen } from "../../../runtime/index.js";
import type { Node, PersistentVolume, PersistentVolumeClaim } from "../kinds.js";
import { findMatchingVolume, volumeMismatch } from "./volume-matching.js";

const claim = (spec: Partial<NonNullable<PersistentVolumeClaim["spec"]>> = {}): PersistentVolumeClaim => ({
  apiVersion: "v1",
  kind: "PersistentVolumeClaim",
  metadata: { name: "c", namespace: "ns", uid: "uid-c" },
  spec: {
    storageClassName: "x",
    accessModes: ["ReadWriteOnce"],
    resources: { requests: { storage: "1Gi" } },
    ...spec,
  },
});

const volume = (
  name: string,
  size: string,
  spec: Partial<NonNullable<PersistentVolume["spec"]>> = {},
  labels: Record<string, string> = {},
  phase: NonNullable<PersistentVolume["status"]>["phase"] = "Available",
): PersistentVolume => ({
  apiVersion: "v1",
  kind: "PersistentVolume",
  metadata: { name, labels },
  spec: {
    storageClassName: "x",
    capacity: { storage: size },
    accessModes: ["ReadWriteOnce", "ReadOnlyMany"],
    ...spec,
  },
  status: { phase },
});

const node = (name: string): Node => ({
  apiVersion: "v1",
  kind: "Node",
  metadata: { name, labels: { "kubernetes.io/hostname": name } },
});

const onNode = (name: string): NonNullable<PersistentVolume["spec"]>["nodeAffinity"] => ({
  required: {
    nodeSelectorTerms: [
      { matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: [name] }] },
    ],
  },
});

const immediate = { delayBinding: false, node: undefined };
const nameOf = (found: Frozen<PersistentVolume> | undefined) => found?.metadata?.name;

describe("findMatchingVolume", () => {
  test("takes the smallest volume that is large enough", () => {
    const volumes = [
      volume("big", "10Gi"),
      volume("small", "512Mi"),
      volume("fits", "2Gi"),
      volume("exact", "1024Mi"),
    ];
    assert.equal(nameOf(findMatchingVolume(claim(), volumes, immediate)), "exact");
  });

  test("skips other classes, missing access modes, other volume modes, claimed and non-Available volumes", () => {
    const volumes = [
      volume("other-class", "1Gi", { storageClassName: "y" }),
      volume("read-only", "1Gi", { accessModes: ["ReadOnlyMany"] }),
      volume("block", "1Gi", { volumeMode: "Block" }),
      volume("claimed", "1Gi", { claimRef: { namespace: "ns", name: "other" } }),
      volume("released", "1Gi", {}, {}, "Released"),
    ];
    assert.equal(findMatchingVolume(claim(), volumes, immediate), undefined);
  });

  test("honours the claim's label selector", () => {
    const volumes = [volume("plain", "1Gi"), volume("fast", "5Gi", {}, { tier: "fast" })];
    const picky = claim({ selector: { matchLabels: { tier: "fast" } } });
    assert.equal(nameOf(findMatchingVolume(picky, volumes, immediate)), "fast");
  });

  test("prefers a volume pre-bound to the claim, whatever its phase", () => {
    const volumes = [
      volume("free", "1Gi"),
      volume("reserved", "5Gi", { claimRef: { namespace: "ns", name: "c" } }, {}, "Pending"),
    ];
    assert.equal(nameOf(findMatchingVolume(claim(), volumes, immediate)), "reserved");
    const otherUid = [volume("reserved", "5Gi", { claimRef: { namespace: "ns", name: "c", uid: "old" } })];
    assert.equal(findMatchingVolume(claim(), otherUid, immediate), undefined);
  });

  test("binds a delayed claim to an unclaimed volume only with a node its affinity allows", () => {
    const volumes = [volume("on-b", "1Gi", { nodeAffinity: onNode("node-b") })];
    assert.equal(findMatchingVolume(claim(), volumes, { delayBinding: true, node: undefined }), undefined);
    assert.equal(
      findMatchingVolume(claim(), volumes, { delayBinding: true, node: node("node-a") }),
      undefined,
    );
    assert.equal(
      nameOf(findMatchingVolume(claim(), volumes, { delayBinding: true, node: node("node-b") })),
      "on-b",
    );
  });
});

describe("volumeMismatch", () => {
  test("names what keeps a requested volume from fitting", () => {
    assert.equal(volumeMismatch(volume("v", "512Mi"), claim()), "requested PV is too small");
    assert.equal(
      volumeMismatch(volume("v", "1Gi", { storageClassName: "y" }), claim()),
      "storageClassName does not match",
    );
    assert.equal(
      volumeMismatch(volume("v", "1Gi", { volumeMode: "Block" }), claim()),
      "incompatible volumeMode",
    );
    assert.equal(
      volumeMismatch(volume("v", "1Gi", { accessModes: ["ReadOnlyMany"] }), claim()),
      "incompatible accessMode",
    );
    assert.equal(volumeMismatch(volume("v", "1Gi"), claim()), undefined);
  });
});
