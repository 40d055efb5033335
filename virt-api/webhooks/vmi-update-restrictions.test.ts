import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { AdmissionRequest } from "./admission-review.js";
import { vmiRestrictionCauses } from "./vmi-update-restrictions.js";

const vmi = (labels: Record<string, string>, memory = "64Mi") => ({
  metadata: { name: "v", namespace: "tenant", labels },
  spec: { domain: { resources: { requests: { memory } } } },
});
const request = (username: string, object: unknown, oldObject?: unknown): AdmissionRequest => ({
  uid: "u",
  operation: oldObject ? "UPDATE" : "CREATE",
  object,
  oldObject,
  userInfo: { username },
});
const EDITOR = "system:serviceaccount:tenant:editor";
const HANDLER = "system:serviceaccount:kubevirt:kubevirt-handler";
const messages = (causes: { message: string }[]) => causes.map((cause) => cause.message);

describe("VMI fields only KubeVirt may change", () => {
  test("a user may not change the spec of a stored VMI; KubeVirt's service accounts may", () => {
    const before = vmi({});
    const after = vmi({}, "128Mi");
    assert.deepEqual(messages(vmiRestrictionCauses(request(EDITOR, after, before), "kubevirt")), [
      "update of VMI object is restricted",
    ]);
    assert.deepEqual(vmiRestrictionCauses(request(HANDLER, after, before), "kubevirt"), []);
    assert.deepEqual(
      vmiRestrictionCauses(request(EDITOR, vmi({ a: "b" }), before), "kubevirt"),
      [],
      "own labels",
    );
  });

  test("reserved labels (the node a VMI runs on, its launcher's uid) are KubeVirt's, on create and update", () => {
    const reserved =
      "modification of the following reserved kubevirt.io/ labels on a VMI object is prohibited";
    const forged = vmi({ "kubevirt.io/nodeName": "node-1" });
    assert.deepEqual(messages(vmiRestrictionCauses(request(EDITOR, forged), "kubevirt")), [reserved]);
    assert.deepEqual(messages(vmiRestrictionCauses(request(EDITOR, forged, vmi({})), "kubevirt")), [
      reserved,
    ]);
    assert.deepEqual(vmiRestrictionCauses(request(HANDLER, forged, vmi({})), "kubevirt"), []);
    // A service account of that name in another namespace is nobody special.
    const impostor = "system:serviceaccount:tenant:kubevirt-handler";
    assert.deepEqual(messages(vmiRestrictionCauses(request(impostor, forged, vmi({})), "kubevirt")), [
      reserved,
    ]);
    // Keeping what KubeVirt set is no modification.
    assert.deepEqual(
      vmiRestrictionCauses(request(EDITOR, vmi({ ...forged.metadata.labels, x: "y" }), forged), "kubevirt"),
      [],
    );
  });
});
