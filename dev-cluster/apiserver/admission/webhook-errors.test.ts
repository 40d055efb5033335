import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { dryRunUnsupported, failedCallingWebhook, webhookDenied } from "./webhook-errors.js";

describe("webhook errors", () => {
  test("a denial says which webhook denied and why, with the webhook's code and reason", () => {
    const invalid = webhookDenied("v.example.com", {
      code: 422,
      reason: "Invalid",
      message: "spec.x: bad",
      details: { causes: [{ field: "spec.x", message: "bad", reason: "FieldValueInvalid" }] },
    });
    assert.deepEqual(
      [invalid.code, invalid.reason, invalid.message],
      [422, "Invalid", 'admission webhook "v.example.com" denied the request: spec.x: bad'],
    );
    assert.equal(invalid.details?.causes?.[0]?.field, "spec.x");
    const reasonOnly = webhookDenied("v.example.com", { reason: "NotAllowed" });
    assert.deepEqual(
      [reasonOnly.code, reasonOnly.message],
      [403, 'admission webhook "v.example.com" denied the request: NotAllowed'],
    );
    const bare = webhookDenied("v.example.com", undefined);
    assert.deepEqual(
      [bare.code, bare.reason, bare.message],
      [403, "Forbidden", 'admission webhook "v.example.com" denied the request without explanation'],
    );
  });

  test("a webhook that cannot be called fails the request as an internal error naming it", () => {
    const error = failedCallingWebhook(
      "v.example.com",
      new Error(
        'failed to call webhook: Post "https://s.ns.svc:443/x?timeout=10s": context deadline exceeded',
      ),
    );
    assert.equal(error.code, 500);
    assert.equal(
      error.message,
      'Internal error occurred: failed calling webhook "v.example.com": failed to call webhook: Post "https://s.ns.svc:443/x?timeout=10s": context deadline exceeded',
    );
    assert.equal(error.toStatus().reason, "InternalError");
  });

  test("a dry run against a webhook with side effects is a bad request", () => {
    const error = dryRunUnsupported("v.example.com");
    assert.deepEqual(
      [error.code, error.message],
      [400, 'admission webhook "v.example.com" does not support dry run'],
    );
  });
});
