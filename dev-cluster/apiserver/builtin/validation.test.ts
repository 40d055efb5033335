import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { StatusCause } from "../api-error.js";
import type { JsonObject } from "../json.js";
import type { ResourceType } from "../resource-type.js";
import { builtinResourceTypes } from "./builtin-resource-types.js";

const types = builtinResourceTypes();

function typeOf(group: string, plural: string): ResourceType {
  const type = types.find((t) => t.group === group && t.plural === plural);
  assert.ok(type, `${group}/${plural}`);
  return type;
}

const pods = typeOf("", "pods");
const deployments = typeOf("apps", "deployments");

/** Defaults then validates, as the server does on a write. */
function causes(type: ResourceType, object: JsonObject, old?: JsonObject): StatusCause[] {
  const copy = structuredClone(object);
  type.applyDefaults(copy);
  let oldCopy: JsonObject | undefined;
  if (old) {
    oldCopy = structuredClone(old);
    type.applyDefaults(oldCopy);
  }
  return type.validate(copy, oldCopy);
}

const fieldsAndReasons = (list: StatusCause[]): string[] => list.map((c) => `${c.field} ${c.reason}`);

function pod(spec: JsonObject = {}, name = "web"): JsonObject {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: "default" },
    spec: { containers: [{ name: "web", image: "nginx:1.27", ports: [{ containerPort: 80 }] }], ...spec },
  };
}

function deployment(spec: JsonObject = {}): JsonObject {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web", namespace: "default" },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: "web" } },
      template: {
        metadata: { labels: { app: "web", tier: "front" } },
        spec: { containers: [{ name: "web", image: "nginx" }] },
      },
      ...spec,
    },
  };
}

function withoutTemplate(object: JsonObject): JsonObject {
  delete (object.spec as JsonObject).template;
  return object;
}

describe("valid objects", () => {
  test("a pod, a deployment and a configmap validate", () => {
    assert.deepEqual(causes(pods, pod()), []);
    assert.deepEqual(causes(deployments, deployment()), []);
    const configMap = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "settings" },
      data: { "app.yaml": "a: 1", KEY_2: "x" },
    };
    assert.deepEqual(causes(typeOf("", "configmaps"), configMap), []);
  });

  test("name rules follow the kind", () => {
    assert.deepEqual(
      causes(typeOf("rbac.authorization.k8s.io", "clusterroles"), {
        metadata: { name: "system:controller:x" },
      }),
      [],
    );
    assert.deepEqual(
      causes(typeOf("apiregistration.k8s.io", "apiservices"), {
        metadata: { name: "v1." },
        spec: { groupPriorityMinimum: 18000, versionPriority: 1 },
      }),
      [],
    );
  });
});

describe("invalid objects", () => {
  const cases: [string, ResourceType, JsonObject, string[]][] = [
    ["a pod without containers", pods, pod({ containers: [] }), ["spec.containers FieldValueRequired"]],
    [
      "a container without image",
      pods,
      pod({ containers: [{ name: "web" }] }),
      ["spec.containers[0].image FieldValueRequired"],
    ],
    [
      "a container port given as a string",
      pods,
      pod({ containers: [{ name: "web", image: "nginx", ports: [{ containerPort: "80" }] }] }),
      ["spec.containers[0].ports[0].containerPort FieldValueTypeInvalid"],
    ],
    [
      "a bad quantity",
      pods,
      pod({ containers: [{ name: "web", image: "nginx", resources: { limits: { cpu: "lots" } } }] }),
      [
        "spec.containers[0].resources.limits[cpu] FieldValueInvalid",
        "spec.containers[0].resources.requests[cpu] FieldValueInvalid",
      ],
    ],
    [
      "duplicate container names",
      pods,
      pod({
        containers: [
          { name: "a", image: "x" },
          { name: "a", image: "y" },
        ],
      }),
      ["spec.containers[1].name FieldValueDuplicate"],
    ],
    ["an upper-case pod name", pods, pod({}, "Web"), ["metadata.name FieldValueInvalid"]],
    ["a missing name", pods, pod({}, ""), ["metadata.name FieldValueRequired"]],
    [
      "a namespace name with a dot",
      typeOf("", "namespaces"),
      { metadata: { name: "a.b" } },
      ["metadata.name FieldValueInvalid"],
    ],
    [
      "a service name starting with a digit",
      typeOf("", "services"),
      { metadata: { name: "1web" }, spec: { ports: [{ port: 80 }] } },
      ["metadata.name FieldValueInvalid"],
    ],
    [
      "a service with two unnamed ports",
      typeOf("", "services"),
      { metadata: { name: "web" }, spec: { ports: [{ port: 80 }, { port: 443 }] } },
      ["spec.ports[0].name FieldValueRequired", "spec.ports[1].name FieldValueRequired"],
    ],
    [
      "a selector that does not match the template",
      deployments,
      deployment({ selector: { matchLabels: { app: "api" } } }),
      ["spec.template.metadata.labels FieldValueInvalid"],
    ],
    [
      "a deployment without template",
      deployments,
      withoutTemplate(deployment()),
      ["spec.template FieldValueRequired"],
    ],
    ["negative replicas", deployments, deployment({ replicas: -1 }), ["spec.replicas FieldValueInvalid"]],
    [
      "a template pod that does not restart",
      deployments,
      deployment({
        template: {
          metadata: { labels: { app: "web" } },
          spec: { restartPolicy: "Never", containers: [{ name: "w", image: "i" }] },
        },
      }),
      ["spec.template.spec.restartPolicy FieldValueNotSupported"],
    ],
    [
      "a configmap key with a space",
      typeOf("", "configmaps"),
      { metadata: { name: "c" }, data: { "a b": "1" } },
      ["data[a b] FieldValueInvalid"],
    ],
    [
      "a configmap key in data and binaryData",
      typeOf("", "configmaps"),
      { metadata: { name: "c" }, data: { a: "1" }, binaryData: { a: "MQ==" } },
      ["data[a] FieldValueInvalid"],
    ],
  ];
  for (const [name, type, object, expected] of cases) {
    test(name, () => {
      assert.deepEqual(fieldsAndReasons(causes(type, object)).sort(), [...expected].sort());
    });
  }

  test("messages read as kube's", () => {
    const [missingImage] = causes(pods, pod({ containers: [{ name: "web" }] }));
    assert.deepEqual(missingImage, {
      reason: "FieldValueRequired",
      message: "Required value",
      field: "spec.containers[0].image",
    });
    const [policy] = causes(
      pods,
      pod({ containers: [{ name: "web", image: "x", imagePullPolicy: "Sometimes" }] }),
    );
    assert.deepEqual(policy, {
      reason: "FieldValueNotSupported",
      message: 'Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
      field: "spec.containers[0].imagePullPolicy",
    });
    const [port] = causes(
      pods,
      pod({ containers: [{ name: "web", image: "x", ports: [{ containerPort: "80" }] }] }),
    );
    assert.equal(port?.message, 'Invalid value: "80": must be of type integer');
    const [quantity] = causes(
      pods,
      pod({ containers: [{ name: "web", image: "x", resources: { limits: { cpu: "lots" } } }] }),
    );
    assert.equal(
      quantity?.message,
      "Invalid value: \"lots\": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
    const [name] = causes(pods, pod({}, "Web"));
    assert.match(
      name?.message ?? "",
      /^Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of/,
    );
  });
});

describe("immutable fields on update", () => {
  const old = pod({ tolerations: [{ key: "a", operator: "Exists" }], activeDeadlineSeconds: 100 });

  test("a pod's image, deadline and new tolerations may change", () => {
    const updated = pod({
      containers: [{ name: "web", image: "nginx:1.28", ports: [{ containerPort: 80 }] }],
      tolerations: [
        { key: "a", operator: "Exists" },
        { key: "b", operator: "Exists" },
      ],
      activeDeadlineSeconds: 50,
    });
    assert.deepEqual(causes(pods, updated, old), []);
  });

  test("other pod spec changes are forbidden", () => {
    const updated = pod({
      tolerations: [{ key: "a", operator: "Exists" }],
      activeDeadlineSeconds: 100,
      nodeSelector: { disk: "ssd" },
    });
    const [cause] = causes(pods, updated, old);
    assert.equal(cause?.field, "spec");
    assert.equal(cause?.reason, "FieldValueForbidden");
    assert.match(
      cause?.message ?? "",
      /^Forbidden: pod updates may not change fields other than `spec.containers\[\*\]\.image`/,
    );
  });

  test("removing a toleration is forbidden", () => {
    const found = fieldsAndReasons(causes(pods, pod({ activeDeadlineSeconds: 100 }), old));
    assert.ok(found.includes("spec.tolerations FieldValueForbidden"), found.join());
  });

  test("a deployment's selector may not change", () => {
    const updated = deployment({ selector: { matchLabels: { app: "web", tier: "front" } } });
    assert.deepEqual(fieldsAndReasons(causes(deployments, updated, deployment())), [
      "spec.selector FieldValueInvalid",
    ]);
    assert.deepEqual(causes(deployments, deployment({ replicas: 5 }), deployment()), []);
  });

  test("a service keeps its cluster IP", () => {
    const services = typeOf("", "services");
    const service = (clusterIP?: string): JsonObject => ({
      metadata: { name: "web" },
      spec: { ports: [{ port: 80 }], ...(clusterIP ? { clusterIP } : {}) },
    });
    const [cause] = causes(services, service("10.96.0.2"), service("10.96.0.1"));
    assert.deepEqual(cause, {
      reason: "FieldValueInvalid",
      message: 'Invalid value: "10.96.0.2": field is immutable',
      field: "spec.clusterIP",
    });
    assert.deepEqual(causes(services, service("10.96.0.1"), service("10.96.0.1")), []);
  });

  test("immutable configmaps and secret types stay", () => {
    const configMaps = typeOf("", "configmaps");
    const frozen = { metadata: { name: "c" }, immutable: true, data: { a: "1" } };
    assert.deepEqual(fieldsAndReasons(causes(configMaps, { ...frozen, data: { a: "2" } }, frozen)), [
      "data FieldValueForbidden",
    ]);
    const secrets = typeOf("", "secrets");
    const secret = { metadata: { name: "s" }, type: "Opaque" };
    assert.deepEqual(fieldsAndReasons(causes(secrets, { ...secret, type: "kubernetes.io/tls" }, secret)), [
      "type FieldValueInvalid",
    ]);
  });
});

describe("validateStatus", () => {
  test("reports status problems only", () => {
    const object = pod({ containers: [] });
    object.status = { phase: 5 };
    assert.deepEqual(fieldsAndReasons(pods.validateStatus(object, pod())), [
      "status.phase FieldValueTypeInvalid",
    ]);
  });
});
