import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eventually, startTestApiServer, type TestApiServer } from "../harness/api-server-fixture.js";
import { rawRequest } from "../harness/https-client.js";
import {
  HOOKS_NAMESPACE,
  handleReview,
  holdAnswers,
  reviewOf,
  type WebhookSpec,
  webhookConfiguration,
} from "./testing/admission-webhook-fixtures.js";
import {
  localServiceManifest,
  type RecordedRequest,
  startTlsBackend,
  type TlsBackend,
} from "./testing/tls-backend.js";

describe("admission webhooks", () => {
  let cluster: TestApiServer;
  let backend: TlsBackend;

  const kubectl = async (args: string[], input?: string) => {
    const result = await cluster.kubectl(args, input === undefined ? {} : { input });
    return result;
  };
  const ok = async (args: string[], input?: string) => {
    const result = await kubectl(args, input);
    assert.equal(result.code, 0, `kubectl ${args.join(" ")}: ${result.stderr}`);
    return result.stdout;
  };
  const register = (kind: "Mutating" | "Validating", hook: WebhookSpec) =>
    ok(["apply", "-f", "-"], webhookConfiguration(kind, backend.caBundle, hook));
  const callsTo = (path: string) => backend.requests.filter((r) => r.url.split("?", 1)[0] === path);

  before(async () => {
    cluster = await startTestApiServer();
    backend = await startTlsBackend({
      serverNames: [`webhooks.${HOOKS_NAMESPACE}.svc`],
      handle: handleReview,
    });
    await ok(["create", "namespace", HOOKS_NAMESPACE]);
    await ok(["apply", "-f", "-"], localServiceManifest(HOOKS_NAMESPACE, "webhooks", backend.port));
    for (const [name, label] of [
      ["hooked", "on"],
      ["plain", "off"],
    ]) {
      await ok(["create", "namespace", name as string]);
      await ok(["label", "namespace", name as string, `webhooks=${label}`]);
    }
  });
  after(async () => {
    await cluster?.close();
    await backend?.close();
  });

  test("a mutating webhook's JSON patch is applied to what kubectl creates, and it sees who asked", async () => {
    await register("Mutating", {
      name: "mutate",
      path: "/mutate",
      rules: [{ operations: ["CREATE", "UPDATE"], resources: ["configmaps"] }],
      namespaceSelector: { webhooks: "on" },
      objectSelector: { test: "mutate" },
    });
    await ok(["create", "configmap", "m1", "-n", "hooked", "--from-literal=a=b"]);
    await ok(["label", "configmap", "m1", "-n", "hooked", "test=mutate"]);
    assert.equal(
      await ok(["get", "configmap", "m1", "-n", "hooked", "-o", "jsonpath={.metadata.labels.mutated}"]),
      "yes",
    );

    const manifest = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"m2","namespace":"hooked","labels":{"test":"mutate"}},"data":{"a":"b"}}`;
    await ok(["apply", "--server-side", "-f", "-"], manifest);
    assert.equal(
      await ok(["get", "configmap", "m2", "-n", "hooked", "-o", "jsonpath={.metadata.labels.mutated}"]),
      "yes",
    );
    const review = reviewOf(callsTo("/mutate").at(-1) as RecordedRequest);
    assert.deepEqual(review.kind, { group: "", version: "v1", kind: "ConfigMap" });
    assert.deepEqual(review.resource, { group: "", version: "v1", resource: "configmaps" });
    assert.equal(review.operation, "CREATE", "server-side apply of a new object is a CREATE");
    assert.equal(review.options.kind, "CreateOptions");
    assert.deepEqual([review.namespace, review.name, review.dryRun], ["hooked", "m2", false]);
    assert.equal(review.userInfo.username, "admin");
    assert.deepEqual(review.object?.data, { a: "b" });
    assert.equal(review.oldObject, null);
  });

  test("a validating webhook's denial reaches kubectl with its message and status code", async () => {
    await register("Validating", {
      name: "deny",
      path: "/deny",
      rules: [{ operations: ["CREATE"], resources: ["configmaps"] }],
      objectSelector: { test: "deny" },
    });
    const manifest = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d1","namespace":"plain","labels":{"test":"deny"}},"data":{"colour":"red"}}`;
    const result = await kubectl(["create", "-f", "-"], manifest);
    assert.notEqual(result.code, 0);
    assert.match(
      result.stderr,
      /admission webhook "deny\.hooks\.example\.com" denied the request: data\.colour: Invalid value: "red": not allowed/,
    );
    const raw = await rawRequest(cluster.server, "POST", "/api/v1/namespaces/plain/configmaps", {
      body: manifest,
      headers: { "content-type": "application/json" },
    });
    assert.equal(raw.status, 422);
    assert.equal((JSON.parse(raw.body) as { reason: string }).reason, "Invalid");
    assert.equal((await kubectl(["get", "configmap", "d1", "-n", "plain"])).code, 1, "nothing was stored");

    await register("Validating", {
      name: "deny-without-code",
      path: "/deny-without-code",
      rules: [{ operations: ["CREATE"], resources: ["configmaps"] }],
      objectSelector: { test: "deny-without-code" },
    });
    const bare = await rawRequest(cluster.server, "POST", "/api/v1/namespaces/plain/configmaps", {
      body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d2","labels":{"test":"deny-without-code"}}}`,
      headers: { "content-type": "application/json" },
    });
    assert.equal(bare.status, 403);
    assert.equal(
      (JSON.parse(bare.body) as { message: string }).message,
      'admission webhook "deny-without-code.hooks.example.com" denied the request: nobody may',
    );
  });

  test("webhooks whose namespaceSelector, objectSelector or rules do not match are not called", async () => {
    const before = { mutate: callsTo("/mutate").length, deny: callsTo("/deny").length };
    // namespaceSelector: plain is webhooks=off.
    await ok(
      ["create", "-f", "-"],
      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"n1","namespace":"plain","labels":{"test":"mutate"}}}`,
    );
    // objectSelector: no test label.
    await ok(["create", "configmap", "n2", "-n", "hooked"]);
    // rules: a Secret is not a configmap; a delete is not a CREATE.
    await ok(
      ["create", "-f", "-"],
      `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"n3","namespace":"hooked","labels":{"test":"deny"}}}`,
    );
    await ok(["delete", "configmap", "n1", "-n", "plain"]);
    assert.deepEqual({ mutate: callsTo("/mutate").length, deny: callsTo("/deny").length }, before);
    assert.equal(
      await ok([
        "get",
        "configmap",
        "n1",
        "-n",
        "plain",
        "-o",
        "jsonpath={.metadata.labels.mutated}",
        "--ignore-not-found",
      ]),
      "",
    );
  });

  test("status writes are matched by resource/status rules only", async () => {
    await register("Validating", {
      name: "pods",
      path: "/allow",
      rules: [{ operations: ["UPDATE"], resources: ["pods"] }],
      objectSelector: { test: "status" },
    });
    await register("Validating", {
      name: "pod-status",
      path: "/warn",
      rules: [{ operations: ["UPDATE"], resources: ["pods/status"] }],
      objectSelector: { test: "status" },
    });
    await ok(
      ["create", "-f", "-"],
      `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p1","namespace":"plain","labels":{"test":"status"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`,
    );
    const before = { allow: callsTo("/allow").length, warn: callsTo("/warn").length };
    const result = await kubectl([
      "patch",
      "pod",
      "p1",
      "-n",
      "plain",
      "--subresource=status",
      "--type=merge",
      "-p",
      '{"status":{"phase":"Running"}}',
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /Warning: colour is deprecated/, "a webhook's warnings reach the client");
    assert.equal(callsTo("/allow").length, before.allow, "a rule for pods does not see status writes");
    assert.equal(callsTo("/warn").length, before.warn + 1);
    const review = reviewOf(callsTo("/warn").at(-1) as RecordedRequest);
    assert.deepEqual(
      [review.operation, review.subResource, review.options.kind],
      ["UPDATE", "status", "PatchOptions"],
    );
    assert.equal(review.oldObject?.metadata.name, "p1");
  });

  test("failurePolicy Fail with the webhook down fails the request clearly; Ignore lets it through", async () => {
    const gone = await startTlsBackend({ serverNames: ["down.hooks.svc"], handle: handleReview });
    await gone.close();
    await ok(["apply", "-f", "-"], localServiceManifest(HOOKS_NAMESPACE, "down", gone.port));
    await register("Validating", {
      name: "fail-closed",
      path: "/allow",
      service: "down",
      rules: [{ operations: ["CREATE"], resources: ["secrets"] }],
      objectSelector: { test: "fail-closed" },
    });
    await register("Validating", {
      name: "fail-open",
      path: "/allow",
      service: "down",
      failurePolicy: "Ignore",
      rules: [{ operations: ["CREATE"], resources: ["secrets"] }],
      objectSelector: { test: "fail-open" },
    });
    const closed = await kubectl(
      ["create", "-f", "-"],
      `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"f1","namespace":"plain","labels":{"test":"fail-closed"}}}`,
    );
    assert.notEqual(closed.code, 0);
    assert.match(
      closed.stderr,
      new RegExp(
        `Internal error occurred: failed calling webhook "fail-closed\\.hooks\\.example\\.com": failed to call webhook: Post "https://down\\.hooks\\.svc:443/allow\\?timeout=5s": .*ECONNREFUSED 127\\.0\\.0\\.1:${gone.port}`,
      ),
    );
    await ok(
      ["create", "-f", "-"],
      `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"f2","namespace":"plain","labels":{"test":"fail-open"}}}`,
    );
    assert.equal(await ok(["get", "secret", "f2", "-n", "plain", "-o", "name"]), "secret/f2\n");
  });

  test("a webhook that does not answer within timeoutSeconds fails the request", async () => {
    const release = holdAnswers();
    await register("Validating", {
      name: "slow",
      path: "/hold",
      timeoutSeconds: 1,
      rules: [{ operations: ["CREATE"], resources: ["secrets"] }],
      objectSelector: { test: "slow" },
    });
    const result = await kubectl(
      ["create", "-f", "-"],
      `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"t1","namespace":"plain","labels":{"test":"slow"}}}`,
    );
    assert.notEqual(result.code, 0);
    assert.match(
      result.stderr,
      /failed calling webhook "slow\.hooks\.example\.com": failed to call webhook: Post "https:\/\/webhooks\.hooks\.svc:443\/hold\?timeout=1s": context deadline exceeded/,
    );
    release();
  });

  test("a dry run may not reach a webhook with side effects; one without them sees dryRun", async () => {
    await register("Validating", {
      name: "side-effects",
      path: "/allow",
      sideEffects: "Some",
      rules: [{ operations: ["CREATE", "DELETE"], resources: ["configmaps"] }],
      objectSelector: { test: "side-effects" },
    });
    const manifest = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"s1","namespace":"plain","labels":{"test":"side-effects"}}}`;
    const dry = await kubectl(["create", "--dry-run=server", "-f", "-"], manifest);
    assert.notEqual(dry.code, 0);
    assert.match(
      dry.stderr,
      /admission webhook "side-effects\.hooks\.example\.com" does not support dry run/,
    );
    await ok(["create", "-f", "-"], manifest);
    const review = reviewOf(callsTo("/allow").at(-1) as RecordedRequest);
    assert.deepEqual([review.name, review.dryRun], ["s1", false]);

    await ok(
      ["create", "--dry-run=server", "-f", "-"],
      manifest.replace('"test":"side-effects"', '"test":"mutate"').replace("plain", "hooked"),
    );
    const dryReview = reviewOf(callsTo("/mutate").at(-1) as RecordedRequest);
    assert.equal(dryReview.dryRun, true);
    assert.equal(
      (await kubectl(["get", "configmap", "s1", "-n", "hooked"])).code,
      1,
      "a dry run stores nothing",
    );
  });

  test("a DELETE is admitted with the object it removes", async () => {
    await register("Validating", {
      name: "protect",
      path: "/deny",
      rules: [{ operations: ["DELETE"], resources: ["configmaps"] }],
      objectSelector: { protected: "true" },
    });
    await ok(["create", "configmap", "keep", "-n", "plain"]);
    await ok(["label", "configmap", "keep", "-n", "plain", "protected=true"]);
    const denied = await kubectl(["delete", "configmap", "keep", "-n", "plain"]);
    assert.notEqual(denied.code, 0);
    assert.match(denied.stderr, /admission webhook "protect\.hooks\.example\.com" denied the request/);
    const review = reviewOf(callsTo("/deny").at(-1) as RecordedRequest);
    assert.deepEqual(
      [review.operation, review.options.kind, review.object],
      ["DELETE", "DeleteOptions", null],
    );
    assert.equal(review.oldObject?.metadata.name, "keep");
    await ok(["label", "configmap", "keep", "-n", "plain", "protected-"]);
    await ok(["delete", "configmap", "keep", "-n", "plain"]);
  });

  test("a write whose object changes while its webhooks run starts over from the new object", async () => {
    const release = holdAnswers();
    await register("Mutating", {
      name: "hold",
      path: "/hold",
      rules: [{ operations: ["UPDATE"], resources: ["configmaps"] }],
      objectSelector: { slow: "yes" },
    });
    await ok(["create", "configmap", "race", "-n", "plain"]);
    const earlier = callsTo("/hold").length;
    const labelling = kubectl(["label", "configmap", "race", "-n", "plain", "slow=yes"]);
    await eventually("the held webhook call", () =>
      callsTo("/hold").length === earlier + 1 ? true : undefined,
    );
    // Neither the old nor the new object of this write has slow=yes: no webhook holds it.
    await ok(["annotate", "configmap", "race", "-n", "plain", "touched=yes"]);
    release();
    const labelled = await labelling;
    assert.equal(labelled.code, 0, labelled.stderr);
    assert.equal(
      callsTo("/hold").length,
      earlier + 2,
      "the webhook is asked again about the write on the new object",
    );
    const retried = reviewOf(callsTo("/hold").at(-1) as RecordedRequest);
    assert.equal(
      (retried.oldObject as { metadata: { annotations?: Record<string, string> } }).metadata.annotations
        ?.touched,
      "yes",
    );
    const stored = JSON.parse(await ok(["get", "configmap", "race", "-n", "plain", "-o", "json"])) as {
      metadata: { labels: Record<string, string>; annotations: Record<string, string> };
    };
    assert.equal(stored.metadata.labels.slow, "yes");
    assert.equal(stored.metadata.annotations.touched, "yes", "the concurrent write is not lost");
  });

  test("webhook configurations themselves are never sent to webhooks", async () => {
    await register("Validating", {
      name: "everything",
      path: "/deny",
      rules: [{ operations: ["*"], apiGroups: ["*"], resources: ["*"] }],
      objectSelector: { test: "everything" },
    });
    const configuration = JSON.parse(
      webhookConfiguration("Validating", backend.caBundle, {
        name: "labelled",
        path: "/deny",
        rules: [{ operations: ["CREATE"], resources: ["configmaps"] }],
        objectSelector: { test: "nothing" },
      }),
    ) as { metadata: Record<string, unknown> };
    configuration.metadata.labels = { test: "everything" };
    await ok(["apply", "-f", "-"], JSON.stringify(configuration));
    await ok(["delete", "validatingwebhookconfiguration", "labelled", "everything"]);
  });
});
