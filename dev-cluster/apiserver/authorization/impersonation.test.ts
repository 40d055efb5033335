import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ApiError } from "../api-error.js";
import type { UserInfo } from "../auth/authenticator.js";
import type { AuthorizationAttributes } from "./attributes.js";
import type { AuthorizationResult, Authorizer } from "./authorizer.js";
import { impersonatedUser, splitServiceAccountUsername } from "./impersonation.js";

/** Allows `impersonate` on the resources listed (and records every check), nothing else. */
class ImpersonationPolicy implements Authorizer {
  readonly checks: string[] = [];
  readonly #allowed: Set<string>;

  constructor(allowed: string[]) {
    this.#allowed = new Set(allowed);
  }

  authorize(a: AuthorizationAttributes): AuthorizationResult {
    const check = `${a.verb} ${a.apiGroup}/${a.resource}${a.subresource ? `/${a.subresource}` : ""} ${a.namespace}/${a.name}`;
    this.checks.push(check);
    const allowed = this.#allowed.has(`${a.apiGroup}/${a.resource}`);
    return { decision: allowed ? "Allow" : "NoOpinion", reason: "" };
  }

  rulesFor(): never {
    throw new Error("not used");
  }
}

const carol: UserInfo = { username: "carol", uid: "c", groups: ["ops", "system:authenticated"] };
const everything = [
  "/users",
  "/groups",
  "/serviceaccounts",
  "authentication.k8s.io/uids",
  "authentication.k8s.io/userextras",
];

describe("impersonation", () => {
  test("without Impersonate-* headers the user is the authenticated one", () => {
    const policy = new ImpersonationPolicy([]);
    assert.equal(impersonatedUser(carol, {}, policy, "/api"), carol);
    assert.deepEqual(policy.checks, []);
  });

  test("a user with groups: each is checked, system:authenticated is added", () => {
    const policy = new ImpersonationPolicy(everything);
    const user = impersonatedUser(
      carol,
      { "impersonate-user": ["dave"], "impersonate-group": ["devs", "qa"], "impersonate-uid": ["42"] },
      policy,
      "/api",
    );
    assert.deepEqual(user, { username: "dave", uid: "42", groups: ["devs", "qa", "system:authenticated"] });
    assert.deepEqual(policy.checks, [
      "impersonate /users /dave",
      "impersonate /groups /devs",
      "impersonate /groups /qa",
      "impersonate authentication.k8s.io/uids /42",
    ]);
  });

  test("a service account gets its groups and is checked as the namespaced object", () => {
    const policy = new ImpersonationPolicy(everything);
    const user = impersonatedUser(
      carol,
      { "impersonate-user": ["system:serviceaccount:ns:sa"] },
      policy,
      "/api",
    );
    assert.deepEqual(user, {
      username: "system:serviceaccount:ns:sa",
      uid: "",
      groups: ["system:serviceaccounts", "system:serviceaccounts:ns", "system:authenticated"],
    });
    assert.deepEqual(policy.checks, ["impersonate /serviceaccounts ns/sa"]);
  });

  test("extras are checked per value and kept", () => {
    const policy = new ImpersonationPolicy(everything);
    const user = impersonatedUser(
      carol,
      { "impersonate-user": ["dave"], "impersonate-extra-scopes%2Fv1": ["a", "b"] },
      policy,
      "/api",
    );
    assert.deepEqual(user.extra, { "scopes/v1": ["a", "b"] });
    assert.deepEqual(policy.checks.slice(1), [
      "impersonate authentication.k8s.io/userextras/scopes/v1 /a",
      "impersonate authentication.k8s.io/userextras/scopes/v1 /b",
    ]);
  });

  test("the anonymous user is unauthenticated", () => {
    const user = impersonatedUser(
      carol,
      { "impersonate-user": ["system:anonymous"] },
      new ImpersonationPolicy(everything),
      "/",
    );
    assert.deepEqual(user.groups, ["system:unauthenticated"]);
  });

  test("a group not allowed is a 403 naming it", () => {
    const policy = new ImpersonationPolicy(["/users"]);
    assert.throws(
      () =>
        impersonatedUser(
          carol,
          { "impersonate-user": ["dave"], "impersonate-group": ["system:masters"] },
          policy,
          "/",
        ),
      (error: unknown) =>
        error instanceof ApiError &&
        error.code === 403 &&
        error.message ===
          'groups "system:masters" is forbidden: User "carol" cannot impersonate resource "groups" in API group "" at the cluster scope',
    );
  });

  test("groups without a user are refused", () => {
    assert.throws(
      () =>
        impersonatedUser(
          carol,
          { "impersonate-group": ["devs"] },
          new ImpersonationPolicy(everything),
          "/api/v1/pods",
        ),
      (error: unknown) =>
        error instanceof ApiError && error.code === 500 && /without impersonating a user/.test(error.message),
    );
  });

  test("service-account usernames must name a valid namespace and account", () => {
    assert.deepEqual(splitServiceAccountUsername("system:serviceaccount:kubevirt:virt-handler"), {
      namespace: "kubevirt",
      name: "virt-handler",
    });
    for (const name of [
      "system:serviceaccount:a",
      "system:serviceaccount:a:b:c",
      "system:serviceaccount:A:b",
      "alice",
    ]) {
      assert.equal(splitServiceAccountUsername(name), undefined, name);
    }
  });
});
