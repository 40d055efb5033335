import assert from "node:assert/strict";
import { after, beforeEach, describe, test } from "node:test";
import type { UserInfo } from "../auth/authenticator.js";
import type { JsonObject } from "../json.js";
import { ObjectStore } from "../storage/object-store.js";
import { requestAttributes } from "./attributes.js";
import { RbacAuthorizer } from "./authorizer.js";
import { RBAC_GROUP, RbacObjects } from "./rbac-objects.js";
import { RuleResolver } from "./rule-resolver.js";

const serviceAccount: UserInfo = {
  username: "system:serviceaccount:team:builder",
  uid: "u1",
  groups: ["system:serviceaccounts", "system:serviceaccounts:team", "system:authenticated"],
};
const alice: UserInfo = { username: "alice", uid: "a", groups: ["devs", "system:authenticated"] };
const admin: UserInfo = {
  username: "admin",
  uid: "admin",
  groups: ["system:masters", "system:authenticated"],
};

function role(
  kind: "Role" | "ClusterRole",
  name: string,
  namespace: string,
  rules: JsonObject[],
): JsonObject {
  return { apiVersion: `${RBAC_GROUP}/v1`, kind, metadata: { name, namespace }, rules };
}

function binding(
  kind: "RoleBinding" | "ClusterRoleBinding",
  name: string,
  namespace: string,
  roleRef: { kind: string; name: string },
  subjects: JsonObject[],
): JsonObject {
  return {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind,
    metadata: { name, namespace },
    roleRef: { apiGroup: RBAC_GROUP, ...roleRef },
    subjects,
  };
}

const plurals: Record<string, string> = {
  Role: "roles",
  ClusterRole: "clusterroles",
  RoleBinding: "rolebindings",
  ClusterRoleBinding: "clusterrolebindings",
};

describe("the RBAC authorizer", () => {
  let store: ObjectStore;
  let objects: RbacObjects;
  let authorizer: RbacAuthorizer;
  const put = (object: JsonObject) => {
    const metadata = object.metadata as { name: string; namespace: string };
    const resource = `${RBAC_GROUP}/${plurals[String(object.kind)]}`;
    const key = { resource, namespace: metadata.namespace, name: metadata.name };
    store.commit([{ type: "put", key, object }]);
  };
  const remove = (kind: string, namespace: string, name: string) => {
    const key = { resource: `${RBAC_GROUP}/${plurals[kind]}`, namespace, name };
    store.commit([{ type: "delete", key, object: { metadata: { name, namespace } } }]);
  };
  const decide = (user: UserInfo, method: string, url: string) =>
    authorizer.authorize(requestAttributes(method, url, user));

  beforeEach(() => {
    objects?.stop();
    store?.close();
    store = new ObjectStore({ path: ":memory:" });
    // A role that existed before the cache was built is read at start.
    put(
      role("ClusterRole", "pod-reader", "", [
        { verbs: ["get", "list"], apiGroups: [""], resources: ["pods"] },
      ]),
    );
    objects = new RbacObjects(store);
    authorizer = new RbacAuthorizer(new RuleResolver(objects));
  });
  after(() => {
    objects.stop();
    store.close();
  });

  test("nothing bound: no opinion and no reason", () => {
    assert.deepEqual(decide(serviceAccount, "GET", "/api/v1/namespaces/team/pods"), {
      decision: "NoOpinion",
      reason: "",
    });
  });

  test("system:masters may do anything, with no reason", () => {
    assert.deepEqual(decide(admin, "DELETE", "/apis/apps/v1/namespaces/x/deployments"), {
      decision: "Allow",
      reason: "",
    });
    assert.equal(decide(admin, "GET", "/metrics").decision, "Allow");
  });

  test("a RoleBinding to a ServiceAccount (namespace defaulted) allows in its namespace only", () => {
    put(role("Role", "reader", "team", [{ verbs: ["list"], apiGroups: [""], resources: ["pods"] }]));
    put(
      binding("RoleBinding", "read", "team", { kind: "Role", name: "reader" }, [
        { kind: "ServiceAccount", name: "builder" },
      ]),
    );
    assert.deepEqual(decide(serviceAccount, "GET", "/api/v1/namespaces/team/pods"), {
      decision: "Allow",
      reason: 'RBAC: allowed by RoleBinding "read/team" of Role "reader" to ServiceAccount "builder/team"',
    });
    assert.equal(decide(serviceAccount, "GET", "/api/v1/namespaces/other/pods").decision, "NoOpinion");
    assert.equal(
      decide(serviceAccount, "GET", "/api/v1/pods").decision,
      "NoOpinion",
      "not across namespaces",
    );
  });

  test("a ClusterRoleBinding to a group allows everywhere, named in the reason", () => {
    put(
      binding("ClusterRoleBinding", "devs-read", "", { kind: "ClusterRole", name: "pod-reader" }, [
        { kind: "User", name: "bob" },
        { kind: "Group", name: "devs" },
      ]),
    );
    assert.deepEqual(decide(alice, "GET", "/api/v1/pods"), {
      decision: "Allow",
      reason: 'RBAC: allowed by ClusterRoleBinding "devs-read" of ClusterRole "pod-reader" to Group "devs"',
    });
    assert.equal(decide(serviceAccount, "GET", "/api/v1/pods").decision, "NoOpinion");
  });

  test("a ClusterRole bound in a namespace by a RoleBinding applies there", () => {
    put(
      binding("RoleBinding", "alice-read", "dev", { kind: "ClusterRole", name: "pod-reader" }, [
        { kind: "User", name: "alice" },
      ]),
    );
    assert.deepEqual(decide(alice, "GET", "/api/v1/namespaces/dev/pods/p"), {
      decision: "Allow",
      reason: 'RBAC: allowed by RoleBinding "alice-read/dev" of ClusterRole "pod-reader" to User "alice"',
    });
    assert.equal(decide(alice, "GET", "/api/v1/namespaces/prod/pods/p").decision, "NoOpinion");
  });

  test("a binding to a missing role is in the denial's reason", () => {
    put(
      binding("ClusterRoleBinding", "dangling", "", { kind: "ClusterRole", name: "gone" }, [
        { kind: "Group", name: "devs" },
      ]),
    );
    put(
      binding("RoleBinding", "dangling", "dev", { kind: "Role", name: "gone-too" }, [
        { kind: "Group", name: "devs" },
      ]),
    );
    assert.deepEqual(decide(alice, "DELETE", "/api/v1/namespaces/dev/pods/p"), {
      decision: "NoOpinion",
      reason:
        'RBAC: [clusterrole.rbac.authorization.k8s.io "gone" not found, role.rbac.authorization.k8s.io "gone-too" not found]',
    });
  });

  test("changes in the store take effect at once: a deleted binding no longer allows", () => {
    put(
      binding("ClusterRoleBinding", "sa-read", "", { kind: "ClusterRole", name: "pod-reader" }, [
        { kind: "ServiceAccount", name: "builder", namespace: "team" },
      ]),
    );
    assert.equal(decide(serviceAccount, "GET", "/api/v1/pods").decision, "Allow");
    put(role("ClusterRole", "pod-reader", "", [{ verbs: ["get"], apiGroups: [""], resources: ["pods"] }]));
    assert.equal(decide(serviceAccount, "GET", "/api/v1/pods").decision, "NoOpinion", "list was removed");
    assert.equal(decide(serviceAccount, "GET", "/api/v1/namespaces/a/pods/p").decision, "Allow");
    remove("ClusterRoleBinding", "", "sa-read");
    assert.equal(decide(serviceAccount, "GET", "/api/v1/namespaces/a/pods/p").decision, "NoOpinion");
  });

  test("a ServiceAccount subject of a ClusterRoleBinding needs its namespace", () => {
    put(
      binding("ClusterRoleBinding", "no-ns", "", { kind: "ClusterRole", name: "pod-reader" }, [
        { kind: "ServiceAccount", name: "builder" },
      ]),
    );
    assert.equal(decide(serviceAccount, "GET", "/api/v1/pods").decision, "NoOpinion");
  });

  test("rulesFor lists the rules of every binding that applies, split by kind", () => {
    put(role("ClusterRole", "metrics", "", [{ verbs: ["get"], nonResourceURLs: ["/metrics"] }]));
    put(
      binding("ClusterRoleBinding", "m", "", { kind: "ClusterRole", name: "metrics" }, [
        { kind: "Group", name: "devs" },
      ]),
    );
    put(
      binding("RoleBinding", "r", "dev", { kind: "ClusterRole", name: "pod-reader" }, [
        { kind: "User", name: "alice" },
      ]),
    );
    put(
      binding("RoleBinding", "x", "dev", { kind: "Role", name: "missing" }, [
        { kind: "User", name: "alice" },
      ]),
    );
    const rules = authorizer.rulesFor(alice, "dev");
    assert.deepEqual(
      rules.resourceRules.map((rule) => rule.resources),
      [["pods"]],
    );
    assert.deepEqual(
      rules.nonResourceRules.map((rule) => rule.nonResourceURLs),
      [["/metrics"]],
    );
    assert.equal(rules.evaluationError, 'role.rbac.authorization.k8s.io "missing" not found');
    assert.deepEqual(authorizer.rulesFor(admin, "dev").resourceRules[0]?.resources, ["*"]);
  });
});
