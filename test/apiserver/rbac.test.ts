/**
 * RBAC authorization end to end: real kubectl (as the admin, as a service account with a
 * TokenRequest'ed token, and impersonating one with --as) and @kubernetes/client-node against the
 * dev API server.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { AuthorizationV1Api } from "@kubernetes/client-node";
import {
  type CommandResult,
  eventually,
  startTestApiServer,
  type TestApiServer,
} from "../harness/api-server-fixture.js";
import { rawRequest } from "../harness/https-client.js";

const BOT = "system:serviceaccount:rbac-a:bot";

describe("RBAC authorization with kubectl and client-node", () => {
  let cluster: TestApiServer;
  let botToken = "";
  const kubectl = (...args: string[]) => cluster.kubectl(args);
  const kubectlOk = async (...args: string[]): Promise<string> => {
    const result = await cluster.kubectl(args);
    assert.equal(result.code, 0, `kubectl ${args.join(" ")}: ${result.stderr}`);
    return result.stdout;
  };
  const apply = (yaml: string) => cluster.kubectl(["apply", "-f", "-"], { input: yaml });
  /** kubectl as the service account, with nothing but its token. */
  const asBot = (...args: string[]) => cluster.kubectl(["--token", botToken, ...args]);
  const canI = (...args: string[]): Promise<CommandResult> => cluster.kubectl(["auth", "can-i", ...args]);

  before(async () => {
    cluster = await startTestApiServer();
    for (const namespace of ["rbac-a", "rbac-b"]) await kubectlOk("create", "namespace", namespace);
    await kubectlOk("create", "serviceaccount", "bot", "-n", "rbac-a");
    botToken = (await kubectlOk("create", "token", "bot", "-n", "rbac-a")).trim();
  });
  after(async () => cluster?.close());

  test("a service account without roles gets kube-apiserver's 403", async () => {
    const listed = await asBot("get", "pods", "-n", "rbac-a");
    assert.equal(listed.code, 1);
    assert.equal(
      listed.stderr.trim(),
      `Error from server (Forbidden): pods is forbidden: User "${BOT}" cannot list resource "pods" in API group "" in the namespace "rbac-a"`,
    );
    const node = await rawRequest(cluster.server, "GET", "/api/v1/nodes/n1", { token: botToken });
    assert.equal(node.status, 403);
    assert.deepEqual(JSON.parse(node.body), {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: `nodes "n1" is forbidden: User "${BOT}" cannot get resource "nodes" in API group "" at the cluster scope`,
      reason: "Forbidden",
      details: { name: "n1", kind: "nodes" },
      code: 403,
    });
    // Discovery and the public paths stay open to every authenticated user.
    assert.equal((await rawRequest(cluster.server, "GET", "/apis", { token: botToken })).status, 200);
    assert.equal((await rawRequest(cluster.server, "GET", "/version", { token: null })).status, 200);
    assert.equal((await rawRequest(cluster.server, "GET", "/api", { token: null })).status, 401);
  });

  test("a Role and RoleBinding let it list pods in one namespace and not in another", async () => {
    await kubectlOk(
      "create",
      "role",
      "pod-reader",
      "-n",
      "rbac-a",
      "--verb=get,list,watch",
      "--resource=pods",
    );
    await kubectlOk(
      "create",
      "rolebinding",
      "bot-reads",
      "-n",
      "rbac-a",
      "--role=pod-reader",
      "--serviceaccount=rbac-a:bot",
    );
    await kubectlOk("run", "web", "-n", "rbac-a", "--image=nginx");
    assert.match(await asBot("get", "pods", "-n", "rbac-a", "-o", "name").then((r) => r.stdout), /pod\/web/);
    const other = await asBot("get", "pods", "-n", "rbac-b");
    assert.match(other.stderr, /cannot list resource "pods" in API group "" in the namespace "rbac-b"/);
    const write = await asBot("delete", "pod", "web", "-n", "rbac-a");
    assert.match(
      write.stderr,
      new RegExp(
        `pods "web" is forbidden: User "${BOT}" cannot delete resource "pods" in API group "" in the namespace "rbac-a"`,
      ),
    );
    const logs = await asBot("logs", "web", "-n", "rbac-a");
    assert.match(
      logs.stderr,
      /cannot get resource "pods\/log" in API group ""/,
      "a subresource needs its own rule",
    );
  });

  test("a ClusterRole with resourceNames allows the named objects only", async () => {
    for (const name of ["settings", "secret-plans"]) {
      await kubectlOk("create", "configmap", name, "-n", "rbac-b", "--from-literal=k=v");
    }
    await kubectlOk(
      "create",
      "clusterrole",
      "settings-reader",
      "--verb=get,list,watch",
      "--resource=configmaps",
      "--resource-name=settings",
    );
    await kubectlOk(
      "create",
      "rolebinding",
      "bot-settings",
      "-n",
      "rbac-b",
      "--clusterrole=settings-reader",
      "--serviceaccount=rbac-a:bot",
    );
    assert.equal((await asBot("get", "configmap", "settings", "-n", "rbac-b")).code, 0);
    const other = await asBot("get", "configmap", "secret-plans", "-n", "rbac-b");
    assert.match(other.stderr, /configmaps "secret-plans" is forbidden/);
    const list = await asBot("get", "configmaps", "-n", "rbac-b");
    assert.match(list.stderr, /cannot list resource "configmaps"/, "an unnamed list is not a named object");
    const pinned = await asBot(
      "get",
      "configmaps",
      "-n",
      "rbac-b",
      "--field-selector=metadata.name=settings",
    );
    assert.equal(pinned.code, 0, `a list pinned to the name is: ${pinned.stderr}`);
  });

  test("an aggregated ClusterRole picks up a labelled role's rules and drops them when it goes", async () => {
    await apply(`apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: monitoring
aggregationRule:
  clusterRoleSelectors:
  - matchLabels:
      example.com/aggregate-to-monitoring: "true"
rules: []
`);
    const rulesOf = async (name: string) =>
      JSON.parse((await kubectlOk("get", "clusterrole", name, "-o", "jsonpath={.rules}")) || "[]") as {
        resources?: string[];
      }[];
    assert.deepEqual(await rulesOf("monitoring"), []);
    await apply(`apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: monitoring-endpoints
  labels:
    example.com/aggregate-to-monitoring: "true"
rules:
- apiGroups: [""]
  resources: ["endpoints"]
  verbs: ["list"]
`);
    await eventually("monitoring has the endpoints rule", async () =>
      (await rulesOf("monitoring")).some((rule) => rule.resources?.includes("endpoints")) ? true : undefined,
    );
    await kubectlOk(
      "create",
      "clusterrolebinding",
      "bot-monitoring",
      "--clusterrole=monitoring",
      "--serviceaccount=rbac-a:bot",
    );
    assert.equal((await asBot("get", "endpoints", "-A")).code, 0);
    // The built-in aggregated roles work the same way: view gathers system:aggregate-to-view.
    const view = await rulesOf("view");
    assert.ok(
      view.some((rule) => rule.resources?.includes("pods")),
      "view aggregates the pod read rule",
    );
    await kubectlOk("delete", "clusterrole", "monitoring-endpoints");
    await eventually("monitoring lost the endpoints rule", async () =>
      (await rulesOf("monitoring")).length === 0 ? true : undefined,
    );
    assert.match((await asBot("get", "endpoints", "-A")).stderr, /forbidden/);
  });

  test("kubectl auth can-i answers yes (exit 0) and no (exit 1), also --as a service account", async () => {
    const admin = await canI("delete", "nodes");
    assert.deepEqual([admin.code, admin.stdout.trim()], [0, "yes"]);
    const yes = await canI("list", "pods", "-n", "rbac-a", `--as=${BOT}`);
    assert.deepEqual([yes.code, yes.stdout.trim()], [0, "yes"]);
    const no = await canI("create", "pods", "-n", "rbac-a", `--as=${BOT}`);
    assert.deepEqual([no.code, no.stdout.trim()], [1, "no"]);
    const own = await asBot("auth", "can-i", "list", "pods", "-n", "rbac-b");
    assert.deepEqual([own.code, own.stdout.trim()], [1, "no"]);
    const named = await asBot("auth", "can-i", "get", "configmap/settings", "-n", "rbac-b");
    assert.deepEqual([named.code, named.stdout.trim()], [0, "yes"]);
  });

  test("kubectl auth can-i --list shows the rules of every binding that applies", async () => {
    const listed = await asBot("auth", "can-i", "--list", "-n", "rbac-a");
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^pods\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    assert.match(
      listed.stdout,
      /^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/m,
    );
    assert.match(listed.stdout, /\[\/apis\/\*\]\s+\[\]\s+\[get\]/);
    const elsewhere = await asBot("auth", "can-i", "--list", "-n", "rbac-b");
    assert.match(elsewhere.stdout, /^configmaps\s+\[\]\s+\[settings\]\s+\[get list watch\]$/m);
    assert.doesNotMatch(elsewhere.stdout, /^pods\s/m);
    const admin = await canI("--list");
    assert.match(admin.stdout, /^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/m);
  });

  test("SubjectAccessReview and its local and self forms through client-node", async () => {
    const api = cluster.kubeConfig().makeApiClient(AuthorizationV1Api);
    const review = await api.createSubjectAccessReview({
      body: {
        spec: {
          user: BOT,
          groups: ["system:serviceaccounts", "system:serviceaccounts:rbac-a", "system:authenticated"],
          resourceAttributes: { namespace: "rbac-a", verb: "watch", resource: "pods" },
        },
      },
    });
    assert.equal(review.status?.allowed, true);
    assert.equal(
      review.status?.reason,
      'RBAC: allowed by RoleBinding "bot-reads/rbac-a" of Role "pod-reader" to ServiceAccount "bot/rbac-a"',
    );
    const denied = await api.createSubjectAccessReview({
      body: { spec: { user: BOT, nonResourceAttributes: { path: "/metrics", verb: "get" } } },
    });
    assert.equal(denied.status?.allowed, false);
    const local = await api.createNamespacedLocalSubjectAccessReview({
      namespace: "rbac-b",
      body: {
        metadata: { namespace: "rbac-b" },
        spec: {
          groups: ["system:masters"],
          resourceAttributes: { namespace: "rbac-b", verb: "delete", resource: "secrets" },
        },
      },
    });
    assert.equal(local.status?.allowed, true);
    const self = await api.createSelfSubjectAccessReview({
      body: { spec: { resourceAttributes: { verb: "*", group: "*", resource: "*" } } },
    });
    assert.equal(self.status?.allowed, true, "the admin may do anything");
    const rules = await api.createSelfSubjectRulesReview({ body: { spec: { namespace: "default" } } });
    const [first] = rules.status?.resourceRules ?? [];
    assert.deepEqual([first?.verbs, first?.apiGroups, first?.resources], [["*"], ["*"], ["*"]]);
    await assert.rejects(
      api.createSubjectAccessReview({ body: { spec: { resourceAttributes: { verb: "get" } } } }),
      /at least one of user or group must be specified/,
    );
    const get = await rawRequest(cluster.server, "GET", "/apis/authorization.k8s.io/v1/subjectaccessreviews");
    assert.equal(get.status, 405, "reviews are create-only");
    const discovery = JSON.parse(await kubectlOk("get", "--raw", "/apis/authorization.k8s.io/v1")) as {
      resources: { name: string; verbs: string[]; namespaced: boolean }[];
    };
    assert.deepEqual(
      discovery.resources.map((r) => [r.name, r.namespaced, r.verbs.join()]),
      [
        ["localsubjectaccessreviews", true, "create"],
        ["selfsubjectaccessreviews", false, "create"],
        ["selfsubjectrulesreviews", false, "create"],
        ["subjectaccessreviews", false, "create"],
      ],
    );
  });

  test("a nonResourceURLs rule opens a path", async () => {
    const before = await rawRequest(cluster.server, "GET", "/metrics", { token: botToken });
    assert.equal(before.status, 403);
    assert.equal(JSON.parse(before.body).message, `forbidden: User "${BOT}" cannot get path "/metrics"`);
    await kubectlOk("create", "clusterrole", "metrics-reader", "--verb=get", "--non-resource-url=/metrics");
    await kubectlOk(
      "create",
      "clusterrolebinding",
      "bot-metrics",
      "--clusterrole=metrics-reader",
      "--serviceaccount=rbac-a:bot",
    );
    const after = await rawRequest(cluster.server, "GET", "/metrics", { token: botToken });
    assert.equal(after.status, 404, "authorized, and this server serves no /metrics");
  });

  test("impersonation needs the impersonate verb", async () => {
    const denied = await asBot("get", "pods", "-n", "rbac-a", "--as=system:serviceaccount:rbac-b:default");
    assert.match(
      denied.stderr,
      new RegExp(
        `serviceaccounts "default" is forbidden: User "${BOT}" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "rbac-b"`,
      ),
    );
    await kubectlOk(
      "create",
      "rolebinding",
      "bot-edits",
      "-n",
      "rbac-b",
      "--clusterrole=edit",
      "--serviceaccount=rbac-a:bot",
    );
    const allowed = await asBot(
      "auth",
      "can-i",
      "list",
      "pods",
      "-n",
      "rbac-b",
      "--as=system:serviceaccount:rbac-b:default",
    );
    assert.deepEqual(
      [allowed.code, allowed.stdout.trim()],
      [1, "no"],
      "impersonated, the account has no roles",
    );
    const group = await asBot(
      "get",
      "pods",
      "-n",
      "rbac-b",
      "--as=system:serviceaccount:rbac-b:default",
      "--as-group=system:masters",
    );
    assert.match(group.stderr, /groups "system:masters" is forbidden/);
  });

  test("roles and bindings grant only what their writer holds (escalate and bind aside)", async () => {
    await kubectlOk("create", "namespace", "rbac-c");
    await kubectlOk(
      "create",
      "rolebinding",
      "bot-admin",
      "-n",
      "rbac-c",
      "--clusterrole=admin",
      "--serviceaccount=rbac-a:bot",
    );
    const held = await asBot("create", "role", "pod-viewer", "-n", "rbac-c", "--verb=get", "--resource=pods");
    assert.equal(held.code, 0, held.stderr);
    const tooMuch = await asBot(
      "create",
      "role",
      "node-viewer",
      "-n",
      "rbac-c",
      "--verb=get,list",
      "--resource=nodes",
    );
    assert.equal(
      tooMuch.stderr.trim(),
      `Error from server (Forbidden): roles.rbac.authorization.k8s.io "node-viewer" is forbidden: user "${BOT}" (groups=["system:serviceaccounts" "system:serviceaccounts:rbac-a" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["nodes"], Verbs:["get" "list"]}`,
    );
    const viewBinding = await asBot(
      "create",
      "rolebinding",
      "x-views",
      "-n",
      "rbac-c",
      "--clusterrole=view",
      "--user=x",
    );
    assert.equal(viewBinding.code, 0, viewBinding.stderr);
    const adminBinding = await asBot(
      "create",
      "rolebinding",
      "x-rules",
      "-n",
      "rbac-c",
      "--clusterrole=cluster-admin",
      "--user=x",
    );
    assert.match(
      adminBinding.stderr,
      /rolebindings.rbac.authorization.k8s.io "x-rules" is forbidden: .* not currently held/,
    );
    await apply(`apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: binder, namespace: rbac-c}
rules:
- {apiGroups: [rbac.authorization.k8s.io], resources: [clusterroles], verbs: [bind], resourceNames: [cluster-admin]}
`);
    await kubectlOk(
      "create",
      "rolebinding",
      "bot-binds",
      "-n",
      "rbac-c",
      "--role=binder",
      "--serviceaccount=rbac-a:bot",
    );
    const bound = await asBot(
      "create",
      "rolebinding",
      "x-rules",
      "-n",
      "rbac-c",
      "--clusterrole=cluster-admin",
      "--user=x",
    );
    assert.equal(bound.code, 0, `with bind on cluster-admin: ${bound.stderr}`);
  });

  test("the admin stays allowed everything", async () => {
    assert.deepEqual((await canI("*", "*")).stdout.trim(), "yes");
    await kubectlOk("delete", "clusterrolebinding", "system:basic-user");
    assert.equal((await kubectl("get", "pods", "-A")).code, 0);
    assert.equal((await canI("create", "pods", `--as=${BOT}`)).code, 1);
    const basic = await canI("create", "pods", "-n", "rbac-a", "--token", botToken);
    assert.match(basic.stderr, /selfsubjectaccessreviews.authorization.k8s.io is forbidden/);
  });
});

describe("the bootstrap policy across restarts", () => {
  let cluster: TestApiServer;
  const kubectlOk = async (...args: string[]): Promise<string> => {
    const result = await cluster.kubectl(args);
    assert.equal(result.code, 0, `kubectl ${args.join(" ")}: ${result.stderr}`);
    return result.stdout;
  };
  const json = async (...args: string[]) => JSON.parse(await kubectlOk("get", ...args, "-o", "json"));

  before(async () => {
    cluster = await startTestApiServer({ inMemory: false });
  });
  after(async () => cluster?.close());

  test("a restart restores what was removed, keeps what users added, and leaves autoupdate=false alone", async () => {
    const discovery = await json("clusterrole", "system:discovery");
    assert.deepEqual(discovery.metadata.labels, { "kubernetes.io/bootstrapping": "rbac-defaults" });
    await kubectlOk(
      "patch",
      "clusterrole",
      "system:discovery",
      "--type=json",
      '-p=[{"op":"replace","path":"/rules","value":[{"verbs":["get"],"nonResourceURLs":["/api","/api/*","/apis","/apis/*","/custom"]}]}]',
    );
    await kubectlOk("label", "clusterrole", "system:discovery", "team=platform");
    await kubectlOk(
      "annotate",
      "clusterrole",
      "system:public-info-viewer",
      "rbac.authorization.kubernetes.io/autoupdate=false",
      "--overwrite",
    );
    await kubectlOk(
      "patch",
      "clusterrole",
      "system:public-info-viewer",
      "--type=json",
      '-p=[{"op":"replace","path":"/rules","value":[]}]',
    );
    await kubectlOk("delete", "clusterrolebinding", "system:basic-user");
    await kubectlOk(
      "patch",
      "clusterrolebinding",
      "cluster-admin",
      "--type=json",
      '-p=[{"op":"add","path":"/subjects/-","value":{"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"ops"}}]',
    );
    const uidBefore = (await json("clusterrole", "cluster-admin")).metadata.uid;

    await cluster.stop();
    await cluster.restart();

    const restored = await json("clusterrole", "system:discovery");
    const urls = restored.rules.flatMap((rule: { nonResourceURLs: string[] }) => rule.nonResourceURLs);
    for (const url of ["/custom", "/version", "/healthz", "/openapi/*"]) assert.ok(urls.includes(url), url);
    assert.equal(restored.metadata.labels.team, "platform");
    assert.deepEqual((await json("clusterrole", "system:public-info-viewer")).rules ?? [], []);
    assert.deepEqual(
      (await json("clusterrolebinding", "system:basic-user")).subjects.map((s: { name: string }) => s.name),
      ["system:authenticated"],
    );
    assert.deepEqual(
      (await json("clusterrolebinding", "cluster-admin")).subjects.map((s: { name: string }) => s.name),
      ["system:masters", "ops"],
    );
    assert.equal(
      (await json("clusterrole", "cluster-admin")).metadata.uid,
      uidBefore,
      "unchanged objects are not recreated",
    );
  });
});
