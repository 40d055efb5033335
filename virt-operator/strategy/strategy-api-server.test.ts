import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { KubeVirt, KubeVirtSpec } from "../../api/index.js";
import { defineKind, KubeClient, type KubeObject, type ResourceKind } from "../../runtime/index.js";
import { startTestApiServer, type TestApiServer } from "../../test/harness/api-server-fixture.js";
import { TEST_TRUST } from "../testing/test-trust.js";
import { type ManagedObject, OPERATOR_FIELD_MANAGER } from "./install-strategy.js";
import { renderStrategy } from "./render-strategy.js";

/**
 * Every object the strategy renders is accepted by the API server as it is (strict field
 * validation: no unknown or misspelt field), and what the server stores contains every rendered
 * field unchanged: the reconciler's drift check (rendered ⊆ live) holds right after an apply.
 */

const OPERATOR = { namespace: "kubevirt", registry: "ghcr.io/kubevirt-ts", version: "v0.1.0" };

function kubevirt(spec: KubeVirtSpec = {}): KubeVirt {
  return {
    apiVersion: "kubevirt.io/v1",
    kind: "KubeVirt",
    metadata: { name: "kubevirt", namespace: "kubevirt" },
    spec,
  };
}

const PLURALS: Record<string, [plural: string, namespaced: boolean]> = {
  CustomResourceDefinition: ["customresourcedefinitions", false],
  ServiceAccount: ["serviceaccounts", true],
  ClusterRole: ["clusterroles", false],
  ClusterRoleBinding: ["clusterrolebindings", false],
  Role: ["roles", true],
  RoleBinding: ["rolebindings", true],
  PriorityClass: ["priorityclasses", false],
  Service: ["services", true],
  Deployment: ["deployments", true],
  DaemonSet: ["daemonsets", true],
  APIService: ["apiservices", false],
  MutatingWebhookConfiguration: ["mutatingwebhookconfigurations", false],
  ValidatingWebhookConfiguration: ["validatingwebhookconfigurations", false],
};

function kindOf(object: ManagedObject): ResourceKind<KubeObject> {
  const names = PLURALS[object.kind];
  assert.ok(names, `a test table entry for ${object.kind}`);
  const [group, version] = object.apiVersion.includes("/")
    ? object.apiVersion.split("/")
    : ["", object.apiVersion];
  return defineKind<KubeObject>({
    group: group ?? "",
    version: version ?? "v1",
    kind: object.kind,
    plural: names[0],
    namespaced: names[1],
  });
}

/** Paths where `live` lacks or changes a field of `rendered` (arrays: same length, element-wise). */
function differences(rendered: unknown, live: unknown, path = ""): string[] {
  if (Array.isArray(rendered)) {
    if (!Array.isArray(live) || live.length !== rendered.length) return [`${path}: ${JSON.stringify(live)}`];
    return rendered.flatMap((element, index) => differences(element, live[index], `${path}[${index}]`));
  }
  if (rendered !== null && typeof rendered === "object") {
    if (live === null || typeof live !== "object" || Array.isArray(live))
      return [`${path}: ${JSON.stringify(live)}`];
    return Object.entries(rendered).flatMap(([key, value]) =>
      differences(value, (live as Record<string, unknown>)[key], `${path}.${key}`),
    );
  }
  return rendered === live ? [] : [`${path}: ${JSON.stringify(live)} instead of ${JSON.stringify(rendered)}`];
}

function refOf(object: ManagedObject): { name: string; namespace?: string } {
  return {
    name: object.metadata.name,
    ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
  };
}

describe("the strategy on the dev API server", () => {
  let cluster: TestApiServer;
  let client: KubeClient;

  before(async () => {
    cluster = await startTestApiServer();
    client = KubeClient.fromKubeConfig(cluster.kubeConfig(), { fieldManager: "strategy-test" });
    const namespaces = client.resource(
      defineKind<KubeObject>({
        group: "",
        version: "v1",
        kind: "Namespace",
        plural: "namespaces",
        namespaced: false,
      }),
    );
    await namespaces.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: "kubevirt" } });
  });

  after(async () => {
    client?.close();
    await cluster?.close();
  });

  test("every object is created with strict field validation, and stored with every rendered field as rendered", async () => {
    const strategy = renderStrategy(OPERATOR, kubevirt(), TEST_TRUST);
    for (const object of strategy.objects) {
      const resource = client.resource(kindOf(object));
      const where = `${object.kind} ${object.metadata.name}`;
      await assert.doesNotReject(resource.create(object as KubeObject, { fieldValidation: "Strict" }), where);
      const stored = await resource.get(refOf(object));
      assert.deepEqual(differences(object, stored), [], `${where} is stored as rendered`);
    }
  });

  test("a strategy with every CR override, server-side applied over it, is stored as rendered too", async () => {
    const strategy = renderStrategy(
      OPERATOR,
      kubevirt({
        imageRegistry: "registry.example/kv",
        imageTag: "v9",
        imagePullPolicy: "Always",
        imagePullSecrets: [{ name: "pull" }],
        infra: {
          replicas: 3,
          nodePlacement: {
            nodeSelector: { role: "infra" },
            tolerations: [{ key: "infra", operator: "Exists", effect: "NoSchedule" }],
            affinity: {
              nodeAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: {
                  nodeSelectorTerms: [{ matchExpressions: [{ key: "infra", operator: "Exists" }] }],
                },
              },
            },
          },
        },
        workloads: { nodePlacement: { nodeSelector: { role: "vms" } } },
      }),
      TEST_TRUST,
    );
    for (const object of strategy.objects) {
      const resource = client.resource(kindOf(object));
      const where = `${object.kind} ${object.metadata.name}`;
      const applied = await resource.apply(object as KubeObject, {
        fieldManager: OPERATOR_FIELD_MANAGER,
        force: true,
        fieldValidation: "Strict",
      });
      assert.deepEqual(differences(object, applied), [], `${where} is stored as rendered`);
    }
  });
});
