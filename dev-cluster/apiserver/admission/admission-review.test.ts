import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { builtinResourceTypes } from "../builtin/builtin-resource-types.js";
import type { JsonObject } from "../json.js";
import type { ResourceType } from "../resource-type.js";
import type { AdmissionAttributes } from "./admission-attributes.js";
import { admissionReview, readAdmissionResponse } from "./admission-review.js";

const pods = builtinResourceTypes().find((t) => t.group === "" && t.plural === "pods") as ResourceType;

const attributes: AdmissionAttributes = {
  operation: "UPDATE",
  type: pods,
  subresource: "status",
  name: "p",
  namespace: "ns",
  object: { apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, status: { phase: "Running" } },
  oldObject: { apiVersion: "v1", kind: "Pod", metadata: { name: "p" } },
  dryRun: true,
  options: { kind: "UpdateOptions", apiVersion: "meta.k8s.io/v1" },
  user: { username: "alice", uid: "1", groups: ["devs"], extra: { scopes: ["a"] } },
};

function review(response: JsonObject): JsonObject {
  return { apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", response };
}

describe("AdmissionReview", () => {
  test("the request names the resource, subresource, user, objects and options", () => {
    const request = admissionReview("uid-1", attributes, pods).request as JsonObject;
    assert.deepEqual(request.kind, { group: "", version: "v1", kind: "Pod" });
    assert.deepEqual(request.resource, { group: "", version: "v1", resource: "pods" });
    assert.deepEqual(request.requestResource, { group: "", version: "v1", resource: "pods" });
    assert.equal(request.subResource, "status");
    assert.equal(request.requestSubResource, "status");
    assert.deepEqual(request.userInfo, {
      username: "alice",
      uid: "1",
      groups: ["devs"],
      extra: { scopes: ["a"] },
    });
    assert.deepEqual([request.uid, request.operation, request.dryRun], ["uid-1", "UPDATE", true]);
    assert.equal((request.options as JsonObject).kind, "UpdateOptions");
    assert.equal(((request.object as JsonObject).status as JsonObject).phase, "Running");
  });

  test("a response is checked: AdmissionReview v1, our uid, a patch only with patchType JSONPatch", () => {
    const patch = Buffer.from(JSON.stringify([{ op: "add", path: "/x", value: 1 }])).toString("base64");
    const answer = readAdmissionResponse(
      review({ uid: "u", allowed: true, patchType: "JSONPatch", patch, warnings: ["w"] }),
      "u",
      true,
    );
    assert.deepEqual(answer, {
      allowed: true,
      patch: [{ op: "add", path: "/x", value: 1 }],
      status: undefined,
      warnings: ["w"],
    });
    const failures: [JsonObject, boolean, RegExp][] = [
      [
        { apiVersion: "admission.k8s.io/v1beta1", kind: "AdmissionReview", response: { uid: "u" } },
        true,
        /expected webhook response of admission\.k8s\.io\/v1, Kind=AdmissionReview, got admission\.k8s\.io\/v1beta1, Kind=AdmissionReview/,
      ],
      [{ apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview" }, true, /webhook response was absent/],
      [review({ uid: "other", allowed: true }), true, /expected response\.uid="u", got "other"/],
      [
        review({ uid: "u", allowed: true, patch }),
        true,
        /returned response\.patch but not response\.patchType/,
      ],
      [
        review({ uid: "u", allowed: true, patch, patchType: "JSONPatch" }),
        false,
        /validating webhook may not return response\.patch/,
      ],
      [
        review({ uid: "u", allowed: true, patch, patchType: "Merge" }),
        true,
        /unsupported patch type "Merge"/,
      ],
    ];
    for (const [body, mutating, message] of failures) {
      assert.throws(() => readAdmissionResponse(body, "u", mutating), message);
    }
  });

  test("a denial carries the webhook's status", () => {
    const answer = readAdmissionResponse(
      review({ uid: "u", allowed: false, status: { code: 422, message: "no" } }),
      "u",
      false,
    );
    assert.deepEqual([answer.allowed, answer.status], [false, { code: 422, message: "no" }]);
  });
});
