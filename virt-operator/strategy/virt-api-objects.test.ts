import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ADMISSION_WEBHOOKS, webhookRuleGroup } from "../../api/index.js";
import { MANAGED_KINDS } from "../kubevirt/managed-kinds.js";
import { findRendered, TEST_OPERATOR, testKubeVirt } from "../testing/strategy-fixtures.js";
import { TEST_TRUST } from "../testing/test-trust.js";
import { renderStrategy } from "./render-strategy.js";

const CA_BUNDLE = Buffer.from(TEST_TRUST.caBundlePem).toString("base64");

interface Container {
  image: string;
  args: string[];
  env: unknown[];
  ports: unknown[];
  readinessProbe: { httpGet: unknown };
  livenessProbe: { httpGet: unknown };
}

interface VirtApiSpec {
  replicas: number;
  selector: unknown;
  template: {
    metadata: { labels: Record<string, string> };
    spec: {
      serviceAccountName: string;
      nodeSelector: Record<string, string>;
      affinity: unknown;
      containers: Container[];
    };
  };
}

interface Webhook {
  name: string;
  clientConfig: {
    service: { namespace: string; name: string; port: number; path: string };
    caBundle: string;
  };
  rules: { operations: string[]; apiGroups: string[]; apiVersions: string[]; resources: string[] }[];
  failurePolicy: string;
  sideEffects: string;
  admissionReviewVersions: string[];
  timeoutSeconds: number;
}

describe("renderStrategy: virt-api", () => {
  const strategy = renderStrategy(TEST_OPERATOR, testKubeVirt(), TEST_TRUST);

  test("Deployment virt-api: 2 replicas of its image, its account, pod IP and namespace, probed over HTTPS", () => {
    const deployment = findRendered(strategy, "Deployment", "virt-api");
    const spec = deployment.spec as VirtApiSpec;
    assert.equal(spec.replicas, 2);
    assert.deepEqual(spec.selector, { matchLabels: { "kubevirt.io": "virt-api" } });
    assert.equal(deployment.metadata.labels["kubevirt.io"], "virt-api");
    assert.equal(spec.template.metadata.labels["kubevirt.io"], "virt-api");
    assert.equal(spec.template.spec.serviceAccountName, "kubevirt-apiserver");
    const [container] = spec.template.spec.containers;
    assert.ok(container);
    assert.equal(container.image, "ghcr.io/kubevirt-ts/virt-api:v0.1.0");
    assert.deepEqual(container.args, ["--port", "8443", "--console-server-port", "8186"]);
    assert.deepEqual(container.env, [
      { name: "POD_NAMESPACE", valueFrom: { fieldRef: { fieldPath: "metadata.namespace" } } },
      { name: "POD_IP", valueFrom: { fieldRef: { fieldPath: "status.podIP" } } },
    ]);
    assert.deepEqual(container.ports, [{ name: "virt-api", containerPort: 8443, protocol: "TCP" }]);
    assert.deepEqual(container.readinessProbe.httpGet, { path: "/readyz", port: 8443, scheme: "HTTPS" });
    assert.deepEqual(container.livenessProbe.httpGet, { path: "/healthz", port: 8443, scheme: "HTTPS" });
    assert.match(
      JSON.stringify(spec.template.spec.affinity),
      /podAntiAffinity/,
      "replicas spread over nodes",
    );
  });

  test("spec.infra places and scales virt-api as it does virt-controller", () => {
    const placed = renderStrategy(
      TEST_OPERATOR,
      testKubeVirt({ infra: { replicas: 3, nodePlacement: { nodeSelector: { role: "infra" } } } }),
      TEST_TRUST,
    );
    const spec = findRendered(placed, "Deployment", "virt-api").spec as VirtApiSpec;
    assert.equal(spec.replicas, 3);
    assert.deepEqual(spec.template.spec.nodeSelector, { "kubernetes.io/os": "linux", role: "infra" });
  });

  test("Service virt-api: port 443 to the container's 8443, selecting virt-api's pods", () => {
    assert.deepEqual(findRendered(strategy, "Service", "virt-api").spec, {
      selector: { "kubevirt.io": "virt-api" },
      ports: [{ port: 443, targetPort: 8443, protocol: "TCP" }],
    });
  });

  test("APIService v1.subresources.kubevirt.io: virt-api's Service, the CA bundle, KubeVirt's priorities", () => {
    assert.deepEqual(findRendered(strategy, "APIService", "v1.subresources.kubevirt.io").spec, {
      group: "subresources.kubevirt.io",
      version: "v1",
      service: { namespace: "kubevirt", name: "virt-api", port: 443 },
      caBundle: CA_BUNDLE,
      groupPriorityMinimum: 1000,
      versionPriority: 15,
    });
  });

  test("webhook configurations: every webhook virt-api serves, at its path, with the CA bundle, failing closed", () => {
    const mutating = findRendered(strategy, "MutatingWebhookConfiguration", "virt-api-mutator")
      .webhooks as Webhook[];
    const validating = findRendered(strategy, "ValidatingWebhookConfiguration", "virt-api-validator")
      .webhooks as Webhook[];
    assert.equal(mutating.length + validating.length, ADMISSION_WEBHOOKS.length);
    for (const expected of ADMISSION_WEBHOOKS) {
      const webhook = (expected.type === "mutating" ? mutating : validating).find(
        (candidate) => candidate.name === expected.name,
      );
      assert.ok(webhook, expected.name);
      assert.deepEqual(webhook.clientConfig, {
        service: { namespace: "kubevirt", name: "virt-api", port: 443, path: expected.path },
        caBundle: CA_BUNDLE,
      });
      assert.deepEqual(webhook.rules, [
        {
          operations: [...expected.operations],
          apiGroups: [webhookRuleGroup(expected).group],
          apiVersions: [webhookRuleGroup(expected).version],
          resources: [expected.resource],
        },
      ]);
      assert.deepEqual(
        [webhook.failurePolicy, webhook.sideEffects, webhook.admissionReviewVersions, webhook.timeoutSeconds],
        [expected.resource === "kubevirts" ? "Ignore" : "Fail", "None", ["v1"], 10],
      );
    }
    const resources = new Set([...mutating, ...validating].flatMap((webhook) => webhook.rules[0]?.resources));
    assert.deepEqual([...resources].sort(), [
      "datavolumes",
      "kubevirts",
      "virtualmachineclusterinstancetypes",
      "virtualmachineclusterpreferences",
      "virtualmachineinstancereplicasets",
      "virtualmachineinstances",
      "virtualmachineinstancetypes",
      "virtualmachinepools",
      "virtualmachinepreferences",
      "virtualmachines",
    ]);
  });

  test("the API registrations come after virt-api's Deployment and Service: uninstall removes them first", () => {
    const at = (kind: string, name: string) =>
      strategy.objects.findIndex((object) => object.kind === kind && object.metadata.name === name);
    const virtApi = Math.max(at("Deployment", "virt-api"), at("Service", "virt-api"));
    for (const [kind, name] of [
      ["APIService", "v1.subresources.kubevirt.io"],
      ["MutatingWebhookConfiguration", "virt-api-mutator"],
      ["ValidatingWebhookConfiguration", "virt-api-validator"],
    ] as const) {
      assert.ok(at(kind, name) > virtApi, `${kind} after virt-api`);
    }
  });

  test("the uninstall stages follow the apply order, so uninstall is its reverse", () => {
    const stageOf = (kind: string) => {
      const managed = MANAGED_KINDS.find((candidate) => candidate.resource.kind === kind);
      assert.ok(managed, `${kind} is a managed kind`);
      return managed.stage;
    };
    const stages = strategy.objects.map((object) => stageOf(object.kind));
    for (let index = 1; index < stages.length; index++) {
      const where = `${strategy.objects[index - 1]?.kind} before ${strategy.objects[index]?.kind}`;
      assert.ok((stages[index - 1] ?? 0) <= (stages[index] ?? 0), where);
    }
    assert.ok(stageOf("ValidatingWebhookConfiguration") > stageOf("Deployment"));
  });
});
