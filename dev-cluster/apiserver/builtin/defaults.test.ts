import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonObject } from "../json.js";
import type { ResourceType } from "../resource-type.js";
import { builtinResourceTypes } from "./builtin-resource-types.js";

const types = builtinResourceTypes();

function defaulted(group: string, plural: string, object: JsonObject): JsonObject {
  const type: ResourceType | undefined = types.find((t) => t.group === group && t.plural === plural);
  assert.ok(type, `${group}/${plural}`);
  const copy = structuredClone(object);
  type.applyDefaults(copy);
  return copy;
}

const templateSpecDefaults = {
  dnsPolicy: "ClusterFirst",
  restartPolicy: "Always",
  terminationGracePeriodSeconds: 30,
  schedulerName: "default-scheduler",
  enableServiceLinks: true,
  securityContext: {},
};

const containerDefaults = {
  terminationMessagePath: "/dev/termination-log",
  terminationMessagePolicy: "File",
  resources: {},
};

describe("pod defaults", () => {
  test("fills the pod spec, containers, ports and status as kube does", () => {
    const pod = defaulted("", "pods", {
      metadata: { name: "p" },
      spec: { containers: [{ name: "a", image: "nginx:1.27", ports: [{ containerPort: 80 }] }] },
    });
    assert.deepEqual(pod.spec, {
      containers: [
        {
          name: "a",
          image: "nginx:1.27",
          ports: [{ containerPort: 80, protocol: "TCP" }],
          imagePullPolicy: "IfNotPresent",
          ...containerDefaults,
        },
      ],
      ...templateSpecDefaults,
      serviceAccountName: "default",
      serviceAccount: "default",
      priority: 0,
    });
    assert.deepEqual(pod.status, { phase: "Pending", qosClass: "BestEffort" });
  });

  test("image pull policy follows the tag", () => {
    const policies = [
      "nginx",
      "nginx:latest",
      "nginx:1.2",
      "registry:5000/nginx",
      "nginx@sha256:abc",
      "registry:5000/nginx:v1",
    ].map((image) => {
      const pod = defaulted("", "pods", { metadata: {}, spec: { containers: [{ name: "a", image }] } });
      return ((pod.spec as JsonObject).containers as JsonObject[])[0]?.imagePullPolicy;
    });
    assert.deepEqual(policies, [
      "Always",
      "Always",
      "IfNotPresent",
      "Always",
      "IfNotPresent",
      "IfNotPresent",
    ]);
  });

  test("keeps what the user set and copies limits to requests", () => {
    const pod = defaulted("", "pods", {
      metadata: {},
      spec: {
        restartPolicy: "Never",
        terminationGracePeriodSeconds: 0,
        serviceAccountName: "builder",
        containers: [
          {
            name: "a",
            image: "x",
            imagePullPolicy: "Never",
            resources: { limits: { cpu: "1", memory: "1Gi" } },
          },
        ],
      },
    });
    const spec = pod.spec as JsonObject;
    assert.equal(spec.restartPolicy, "Never");
    assert.equal(spec.terminationGracePeriodSeconds, 0);
    assert.equal(spec.serviceAccountName, "builder");
    const [container] = spec.containers as JsonObject[];
    assert.equal(container?.imagePullPolicy, "Never");
    assert.deepEqual(container?.resources, {
      limits: { cpu: "1", memory: "1Gi" },
      requests: { cpu: "1", memory: "1Gi" },
    });
    assert.equal((pod.status as JsonObject).qosClass, "Guaranteed");
  });

  test("defaults probes and volumes", () => {
    const pod = defaulted("", "pods", {
      metadata: {},
      spec: {
        containers: [{ name: "a", image: "x", readinessProbe: { httpGet: { port: 80 } } }],
        volumes: [{ name: "scratch" }, { name: "config", configMap: { name: "c" } }],
      },
    });
    const spec = pod.spec as JsonObject;
    const [container] = spec.containers as JsonObject[];
    assert.deepEqual(container?.readinessProbe, {
      httpGet: { port: 80, path: "/", scheme: "HTTP" },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    assert.deepEqual(spec.volumes, [
      { name: "scratch", emptyDir: {} },
      { name: "config", configMap: { name: "c", defaultMode: 420 } },
    ]);
  });
});

describe("workload defaults", () => {
  const template = {
    metadata: { labels: { app: "a" } },
    spec: { containers: [{ name: "a", image: "x:1" }] },
  };

  test("deployments", () => {
    const deployment = defaulted("apps", "deployments", { metadata: {}, spec: { selector: {}, template } });
    const spec = deployment.spec as JsonObject;
    assert.equal(spec.replicas, 1);
    assert.deepEqual(spec.strategy, {
      type: "RollingUpdate",
      rollingUpdate: { maxUnavailable: "25%", maxSurge: "25%" },
    });
    assert.equal(spec.revisionHistoryLimit, 10);
    assert.equal(spec.progressDeadlineSeconds, 600);
    const podSpec = (spec.template as JsonObject).spec as JsonObject;
    assert.deepEqual(podSpec, {
      containers: [{ name: "a", image: "x:1", imagePullPolicy: "IfNotPresent", ...containerDefaults }],
      ...templateSpecDefaults,
    });
  });

  test("a Recreate deployment gets no rolling update", () => {
    const deployment = defaulted("apps", "deployments", {
      metadata: {},
      spec: { strategy: { type: "Recreate" }, template },
    });
    assert.deepEqual((deployment.spec as JsonObject).strategy, { type: "Recreate" });
  });

  test("daemonsets and replicasets", () => {
    const daemonSet = defaulted("apps", "daemonsets", { metadata: {}, spec: { template } });
    assert.deepEqual((daemonSet.spec as JsonObject).updateStrategy, {
      type: "RollingUpdate",
      rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
    });
    const replicaSet = defaulted("apps", "replicasets", { metadata: {}, spec: { replicas: 0, template } });
    assert.equal((replicaSet.spec as JsonObject).replicas, 0);
    assert.equal(
      (defaulted("apps", "replicasets", { metadata: {}, spec: {} }).spec as JsonObject).replicas,
      1,
    );
  });
});

describe("other defaults", () => {
  test("services", () => {
    const service = defaulted("", "services", {
      metadata: {},
      spec: { ports: [{ port: 80 }, { port: 443, targetPort: "https" }] },
    });
    assert.deepEqual(service.spec, {
      ports: [
        { port: 80, protocol: "TCP", targetPort: 80 },
        { port: 443, protocol: "TCP", targetPort: "https" },
      ],
      sessionAffinity: "None",
      type: "ClusterIP",
      internalTrafficPolicy: "Cluster",
    });
    const nodePort = defaulted("", "services", { metadata: {}, spec: { type: "NodePort", ports: [] } });
    assert.equal((nodePort.spec as JsonObject).externalTrafficPolicy, "Cluster");
  });

  test("secrets are Opaque and stringData becomes data", () => {
    const secret = defaulted("", "secrets", {
      metadata: {},
      data: { a: "eA==" },
      stringData: { b: "hello" },
    });
    assert.deepEqual(secret, { metadata: {}, type: "Opaque", data: { a: "eA==", b: "aGVsbG8=" } });
  });

  test("namespaces get the kubernetes finalizer and are Active", () => {
    assert.deepEqual(defaulted("", "namespaces", { metadata: { name: "n" } }), {
      metadata: { name: "n" },
      spec: { finalizers: ["kubernetes"] },
      status: { phase: "Active" },
    });
    const finalized = defaulted("", "namespaces", {
      metadata: { name: "n" },
      spec: { finalizers: [] },
      status: { phase: "Terminating" },
    });
    assert.deepEqual(finalized.spec, { finalizers: [] });
    assert.deepEqual(finalized.status, { phase: "Terminating" });
  });

  test("custom resource definitions and rbac subjects", () => {
    const crd = defaulted("apiextensions.k8s.io", "customresourcedefinitions", {
      metadata: {},
      spec: { names: { kind: "Widget", plural: "widgets" }, versions: [{ name: "v1", storage: true }] },
    });
    assert.deepEqual((crd.spec as JsonObject).names, {
      kind: "Widget",
      plural: "widgets",
      singular: "widget",
      listKind: "WidgetList",
    });
    assert.deepEqual((crd.spec as JsonObject).conversion, { strategy: "None" });
    assert.deepEqual((crd.status as JsonObject).storedVersions, ["v1"]);
    const binding = defaulted("rbac.authorization.k8s.io", "rolebindings", {
      metadata: {},
      subjects: [
        { kind: "User", name: "u" },
        { kind: "ServiceAccount", name: "s", namespace: "n" },
      ],
    });
    assert.deepEqual(binding.subjects, [
      { kind: "User", name: "u", apiGroup: "rbac.authorization.k8s.io" },
      { kind: "ServiceAccount", name: "s", namespace: "n", apiGroup: "" },
    ]);
  });

  test("defaulting twice changes nothing", () => {
    const objects: [string, string, JsonObject][] = [
      [
        "",
        "pods",
        {
          metadata: {},
          spec: { containers: [{ name: "a", image: "x", resources: { limits: { cpu: "1" } } }] },
        },
      ],
      ["", "secrets", { metadata: {}, stringData: { a: "b" } }],
      ["", "services", { metadata: {}, spec: { type: "LoadBalancer", ports: [{ port: 1 }] } }],
    ];
    for (const [group, plural, object] of objects) {
      const once = defaulted(group, plural, object);
      assert.deepEqual(defaulted(group, plural, once), once, plural);
    }
  });
});
