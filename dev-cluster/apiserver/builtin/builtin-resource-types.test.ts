import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import type { ResourceType } from "../resource-type.js";
import { builtinResourceTypes } from "./builtin-resource-types.js";

const types = new Map(builtinResourceTypes().map((type) => [`${type.group}/${type.plural}`, type]));

function typeOf(groupAndPlural: string): ResourceType {
  const type = types.get(groupAndPlural);
  assert.ok(type, `no built-in type ${groupAndPlural}`);
  return type;
}

/** [group/plural, version, kind, namespaced, shortNames, categories, status, scale, other subresources] as Kubernetes 1.32 serves them. */
const expected: [string, string, string, boolean, string[], string[], boolean, boolean, string[]][] = [
  ["/namespaces", "v1", "Namespace", false, ["ns"], [], true, false, []],
  ["/pods", "v1", "Pod", true, ["po"], ["all"], true, false, ["binding", "log"]],
  ["/nodes", "v1", "Node", false, ["no"], [], true, false, []],
  ["/services", "v1", "Service", true, ["svc"], ["all"], true, false, []],
  ["/endpoints", "v1", "Endpoints", true, ["ep"], [], false, false, []],
  ["/configmaps", "v1", "ConfigMap", true, ["cm"], [], false, false, []],
  ["/secrets", "v1", "Secret", true, [], [], false, false, []],
  ["/serviceaccounts", "v1", "ServiceAccount", true, ["sa"], [], false, false, ["token"]],
  ["/events", "v1", "Event", true, ["ev"], [], false, false, []],
  ["/persistentvolumeclaims", "v1", "PersistentVolumeClaim", true, ["pvc"], [], true, false, []],
  ["/persistentvolumes", "v1", "PersistentVolume", false, ["pv"], [], true, false, []],
  ["storage.k8s.io/storageclasses", "v1", "StorageClass", false, ["sc"], [], false, false, []],
  ["events.k8s.io/events", "v1", "Event", true, ["ev"], [], false, false, []],
  ["coordination.k8s.io/leases", "v1", "Lease", true, [], [], false, false, []],
  ["apps/controllerrevisions", "v1", "ControllerRevision", true, [], [], false, false, []],
  ["apps/deployments", "v1", "Deployment", true, ["deploy"], ["all"], true, true, []],
  ["apps/daemonsets", "v1", "DaemonSet", true, ["ds"], ["all"], true, false, []],
  ["apps/replicasets", "v1", "ReplicaSet", true, ["rs"], ["all"], true, true, []],
  ["rbac.authorization.k8s.io/roles", "v1", "Role", true, [], [], false, false, []],
  ["rbac.authorization.k8s.io/rolebindings", "v1", "RoleBinding", true, [], [], false, false, []],
  ["rbac.authorization.k8s.io/clusterroles", "v1", "ClusterRole", false, [], [], false, false, []],
  [
    "rbac.authorization.k8s.io/clusterrolebindings",
    "v1",
    "ClusterRoleBinding",
    false,
    [],
    [],
    false,
    false,
    [],
  ],
  [
    "apiextensions.k8s.io/customresourcedefinitions",
    "v1",
    "CustomResourceDefinition",
    false,
    ["crd", "crds"],
    ["api-extensions"],
    true,
    false,
    [],
  ],
  ["apiregistration.k8s.io/apiservices", "v1", "APIService", false, [], ["api-extensions"], true, false, []],
  [
    "admissionregistration.k8s.io/mutatingwebhookconfigurations",
    "v1",
    "MutatingWebhookConfiguration",
    false,
    [],
    ["api-extensions"],
    false,
    false,
    [],
  ],
  [
    "admissionregistration.k8s.io/validatingwebhookconfigurations",
    "v1",
    "ValidatingWebhookConfiguration",
    false,
    [],
    ["api-extensions"],
    false,
    false,
    [],
  ],
  ["scheduling.k8s.io/priorityclasses", "v1", "PriorityClass", false, ["pc"], [], false, false, []],
  ["discovery.k8s.io/endpointslices", "v1", "EndpointSlice", true, [], [], false, false, []],
];

describe("builtinResourceTypes", () => {
  test("serves exactly the expected resources", () => {
    assert.deepEqual([...types.keys()].sort(), expected.map(([key]) => key).sort());
  });

  for (const [key, version, kind, namespaced, shortNames, categories, status, scale, others] of expected) {
    test(`${key} has the names and subresources of Kubernetes 1.32`, () => {
      const type = typeOf(key);
      assert.deepEqual(
        {
          version: type.version,
          kind: type.kind,
          listKind: type.listKind,
          singular: type.singular,
          namespaced: type.namespaced,
          shortNames: type.shortNames,
          categories: type.categories,
          builtin: type.builtin,
          statusSubresource: type.statusSubresource,
          scale: type.scaleSubresource !== undefined,
          otherSubresources: type.otherSubresources,
        },
        {
          version,
          kind,
          listKind: `${kind}List`,
          singular: kind.toLowerCase(),
          namespaced,
          shortNames,
          categories,
          builtin: true,
          statusSubresource: status,
          scale,
          otherSubresources: others,
        },
      );
    });
  }

  test("deployments scale through spec.replicas, status.replicas and spec.selector", () => {
    assert.deepEqual(typeOf("apps/deployments").scaleSubresource, {
      specReplicasPath: ".spec.replicas",
      statusReplicasPath: ".status.replicas",
      labelSelectorPath: ".spec.selector",
    });
  });

  test("every table starts with the name column", () => {
    for (const type of types.values()) {
      const [first] = type.table.columns;
      assert.equal(first?.name, "Name", type.plural);
      assert.equal(first?.format, "name", type.plural);
      const cells = type.table.cells(
        { metadata: { name: "x", creationTimestamp: "2024-01-01T00:00:00Z" } },
        new Date(),
      );
      assert.equal(cells.length, type.table.columns.length, type.plural);
      assert.equal(cells[0], "x", type.plural);
    }
  });
});

function property(schema: JsonValue | undefined, ...path: string[]): JsonObject {
  let node = schema;
  for (const name of path) {
    assert.ok(isJsonObject(node), `no schema above ${name}`);
    const inner: JsonValue | undefined = node.type === "array" ? node.items : node;
    assert.ok(isJsonObject(inner) && isJsonObject(inner.properties), `no properties above ${name}`);
    node = inner.properties[name];
  }
  assert.ok(isJsonObject(node), `no schema at ${path.join(".")}`);
  return node;
}

describe("openApiSchema", () => {
  test("describes the kind and its top-level fields", () => {
    const schema = typeOf("/pods").openApiSchema;
    assert.match(String(schema.description), /^Pod is a collection of containers/);
    for (const field of ["apiVersion", "kind", "metadata", "spec", "status"]) {
      assert.equal(typeof property(schema, field).description, "string", field);
    }
  });

  test("carries the strategic-merge keys of pod template lists", () => {
    const spec = typeOf("apps/deployments").openApiSchema;
    const containers = property(spec, "spec", "template", "spec", "containers");
    assert.equal(containers["x-kubernetes-patch-merge-key"], "name");
    assert.equal(containers["x-kubernetes-patch-strategy"], "merge");
    const ports = property(spec, "spec", "template", "spec", "containers", "ports");
    assert.equal(ports["x-kubernetes-patch-merge-key"], "containerPort");
    assert.deepEqual(ports["x-kubernetes-list-map-keys"], ["containerPort", "protocol"]);
    const volumes = property(spec, "spec", "template", "spec", "volumes");
    assert.equal(volumes["x-kubernetes-patch-strategy"], "merge,retainKeys");
    const env = property(spec, "spec", "template", "spec", "containers", "env");
    assert.equal(env["x-kubernetes-patch-merge-key"], "name");
  });

  test("describes deep fields with their types", () => {
    const schema = typeOf("/pods").openApiSchema;
    assert.deepEqual(property(schema, "spec", "containers", "resources", "limits").type, "object");
    assert.deepEqual(property(schema, "spec", "containers", "ports", "containerPort"), {
      type: "integer",
      format: "int32",
    });
    assert.equal(
      property(typeOf("/services").openApiSchema, "spec", "ports", "targetPort").format,
      "int-or-string",
    );
  });

  test("builds for every kind, recursive CRD schemas included", () => {
    for (const type of types.values()) assert.equal(type.openApiSchema.type, "object", type.plural);
    const props = property(
      typeOf("apiextensions.k8s.io/customresourcedefinitions").openApiSchema,
      "spec",
      "versions",
      "schema",
      "openAPIV3Schema",
      "properties",
    );
    assert.equal(props.type, "object");
  });
});

describe("prune", () => {
  test("drops unknown fields at any depth and reports them as kube prints them", () => {
    const deployment: JsonObject = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "web", labels: { "app.kubernetes.io/name": "web" }, bogus: 1 },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: "web" } },
        template: {
          spec: {
            containers: [
              { name: "web", image: "nginx", imagePolicy: "x", resources: { limits: { cpu: "1" } } },
            ],
          },
        },
        extra: {},
      },
    };
    assert.deepEqual(typeOf("apps/deployments").prune(deployment), [
      "metadata.bogus",
      "spec.template.spec.containers[0].imagePolicy",
      "spec.extra",
    ]);
    assert.deepEqual(deployment.metadata, { name: "web", labels: { "app.kubernetes.io/name": "web" } });
    assert.deepEqual(Object.keys(deployment.spec as JsonObject), ["replicas", "selector", "template"]);
  });

  test("keeps free-form fields (managedFields' fieldsV1, CRD schema defaults)", () => {
    const configMap: JsonObject = {
      metadata: { name: "c", managedFields: [{ manager: "kubectl", fieldsV1: { "f:data": { "f:a": {} } } }] },
      data: { a: "1" },
    };
    assert.deepEqual(typeOf("/configmaps").prune(configMap), []);
    const crd: JsonObject = {
      metadata: { name: "a.b" },
      spec: {
        versions: [
          { name: "v1", schema: { openAPIV3Schema: { type: "object", default: { anything: { goes: 1 } } } } },
        ],
      },
    };
    assert.deepEqual(typeOf("apiextensions.k8s.io/customresourcedefinitions").prune(crd), []);
  });
});

describe("selectableFields", () => {
  test("lists every supported field even for an empty object", () => {
    assert.deepEqual(Object.keys(typeOf("/pods").selectableFields({ metadata: {} })).sort(), [
      "spec.hostNetwork",
      "spec.nodeName",
      "spec.restartPolicy",
      "spec.schedulerName",
      "spec.serviceAccountName",
      "status.nominatedNodeName",
      "status.phase",
      "status.podIP",
    ]);
    assert.deepEqual(Object.keys(typeOf("/events").selectableFields({ metadata: {} })).sort(), [
      "involvedObject.apiVersion",
      "involvedObject.fieldPath",
      "involvedObject.kind",
      "involvedObject.name",
      "involvedObject.namespace",
      "involvedObject.resourceVersion",
      "involvedObject.uid",
      "reason",
      "reportingComponent",
      "source",
      "type",
    ]);
  });

  test("reads values as strings, unset as empty", () => {
    const pod = { metadata: { name: "p" }, spec: { nodeName: "" }, status: { phase: "Running" } };
    const fields = typeOf("/pods").selectableFields(pod);
    assert.equal(fields["spec.nodeName"], "");
    assert.equal(fields["status.phase"], "Running");
    assert.equal(fields["spec.hostNetwork"], "false");
    assert.deepEqual(typeOf("/secrets").selectableFields({ metadata: {}, type: "Opaque" }), {
      type: "Opaque",
    });
    assert.deepEqual(typeOf("/nodes").selectableFields({ metadata: {}, spec: { unschedulable: true } }), {
      "spec.unschedulable": "true",
    });
    assert.deepEqual(typeOf("/namespaces").selectableFields({ metadata: {}, status: { phase: "Active" } }), {
      "status.phase": "Active",
    });
    assert.deepEqual(typeOf("apps/replicasets").selectableFields({ metadata: {}, status: { replicas: 3 } }), {
      "status.replicas": "3",
    });
    const event = {
      metadata: {},
      involvedObject: { kind: "Pod", name: "p" },
      source: { component: "kubelet" },
    };
    const eventFields = typeOf("/events").selectableFields(event);
    assert.equal(eventFields["involvedObject.kind"], "Pod");
    assert.equal(eventFields.source, "kubelet");
    assert.equal(typeOf("/services").selectableFields(event)["spec.type"], undefined);
  });
});
