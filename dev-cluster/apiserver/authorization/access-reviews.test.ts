import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { ApiError } from "../api-error.js";
import type { JsonObject, JsonValue } from "../json.js";
import { ObjectStore } from "../storage/object-store.js";
import { createReview } from "./access-reviews.js";
import { authorizationResourceTypes } from "./authorization-kinds.js";
import { RbacAuthorizer } from "./authorizer.js";
import { RBAC_GROUP, RbacObjects } from "./rbac-objects.js";
import { RuleResolver } from "./rule-resolver.js";

const store = new ObjectStore({ path: ":memory:" });
store.commit([
  {
    type: "put",
    key: { resource: `${RBAC_GROUP}/roles`, namespace: "dev", name: "reader" },
    object: {
      metadata: { name: "reader", namespace: "dev" },
      rules: [{ verbs: ["get"], apiGroups: [""], resources: ["pods"] }],
    },
  },
  {
    type: "put",
    key: { resource: `${RBAC_GROUP}/rolebindings`, namespace: "dev", name: "alice" },
    object: {
      metadata: { name: "alice", namespace: "dev" },
      roleRef: { kind: "Role", name: "reader" },
      subjects: [{ kind: "User", name: "alice" }],
    },
  },
]);
const objects = new RbacObjects(store);
const authorizer = new RbacAuthorizer(new RuleResolver(objects));
const types = new Map(authorizationResourceTypes().map((type) => [type.plural, type]));
const alice = { username: "alice", uid: "", groups: ["system:authenticated"] };

function review(plural: string, body: JsonValue, namespace = ""): JsonObject {
  const type = types.get(plural);
  assert.ok(type, plural);
  return createReview(authorizer, { type, namespace, body, requester: alice, fieldValidation: "Strict" })
    .object;
}

function rejected(plural: string, body: JsonValue, pattern: RegExp, namespace = ""): void {
  assert.throws(
    () => review(plural, body, namespace),
    (error: unknown) => error instanceof ApiError && pattern.test(error.message),
  );
}

const sar = (spec: JsonObject) => ({
  apiVersion: "authorization.k8s.io/v1",
  kind: "SubjectAccessReview",
  spec,
});
const get = { namespace: "dev", verb: "get", resource: "pods" };

describe("access reviews", () => {
  after(() => {
    objects.stop();
    store.close();
  });

  test("a SubjectAccessReview answers for the spec's user and echoes the spec", () => {
    const answer = review("subjectaccessreviews", sar({ user: "alice", resourceAttributes: get }));
    assert.deepEqual(answer.status, {
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "alice/dev" of Role "reader" to User "alice"',
    });
    assert.deepEqual(answer.spec, { user: "alice", resourceAttributes: get });
    assert.deepEqual(answer.metadata, { creationTimestamp: null });
    assert.deepEqual(review("subjectaccessreviews", sar({ user: "bob", resourceAttributes: get })).status, {
      allowed: false,
    });
  });

  test("SubjectAccessReview validation, as upstream", () => {
    rejected(
      "subjectaccessreviews",
      sar({ resourceAttributes: get }),
      /spec.user: Invalid value: "": at least one of user or group must be specified/,
    );
    rejected(
      "subjectaccessreviews",
      sar({ user: "a" }),
      /exactly one of nonResourceAttributes or resourceAttributes must be specified/,
    );
    rejected(
      "subjectaccessreviews",
      sar({ user: "a", resourceAttributes: get, nonResourceAttributes: { path: "/x", verb: "get" } }),
      /cannot be specified in combination with resourceAttributes/,
    );
    rejected(
      "subjectaccessreviews",
      { ...sar({ user: "a", resourceAttributes: get }), metadata: { name: "x" } },
      /metadata: Invalid value: .*: must be empty/,
    );
    // What clients send for an empty ObjectMeta is empty.
    review("subjectaccessreviews", {
      ...sar({ user: "a", resourceAttributes: get }),
      metadata: { creationTimestamp: null },
    });
  });

  test("a SelfSubjectAccessReview answers for the requester", () => {
    const body = {
      kind: "SelfSubjectAccessReview",
      apiVersion: "authorization.k8s.io/v1",
      spec: { resourceAttributes: get },
    };
    assert.equal((review("selfsubjectaccessreviews", body).status as { allowed: boolean }).allowed, true);
  });

  test("a LocalSubjectAccessReview is about its own namespace only", () => {
    const local = (namespace: string, metadataNamespace?: string): JsonObject => ({
      kind: "LocalSubjectAccessReview",
      apiVersion: "authorization.k8s.io/v1",
      metadata: metadataNamespace === undefined ? {} : { namespace: metadataNamespace },
      spec: { user: "alice", resourceAttributes: { ...get, namespace } },
    });
    const answer = review("localsubjectaccessreviews", local("dev"), "dev");
    assert.deepEqual(answer.metadata, { namespace: "dev", creationTimestamp: null });
    assert.equal((answer.status as { allowed: boolean }).allowed, true);
    rejected(
      "localsubjectaccessreviews",
      local("prod"),
      /spec.resourceAttributes.namespace: .*must match metadata.namespace/,
      "dev",
    );
    rejected(
      "localsubjectaccessreviews",
      local("dev", "prod"),
      /does not match the namespace sent on the request/,
      "dev",
    );
    rejected("localsubjectaccessreviews", local("dev"), /could not find the requested resource/, "");
  });

  test("a SelfSubjectRulesReview lists the requester's rules in the namespace", () => {
    const body = {
      kind: "SelfSubjectRulesReview",
      apiVersion: "authorization.k8s.io/v1",
      spec: { namespace: "dev" },
    };
    assert.deepEqual(review("selfsubjectrulesreviews", body), {
      kind: "SelfSubjectRulesReview",
      apiVersion: "authorization.k8s.io/v1",
      metadata: { creationTimestamp: null },
      spec: {},
      status: {
        resourceRules: [{ verbs: ["get"], apiGroups: [""], resources: ["pods"] }],
        nonResourceRules: [],
        incomplete: false,
      },
    });
    rejected("selfsubjectrulesreviews", { ...body, spec: {} }, /no namespace on request/);
  });
});
