import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonObject } from "../json.js";
import type { FieldSemantics } from "../resource-type.js";
import { builtinFieldSemantics } from "./builtin-field-semantics.js";
import { applyStrategicMergePatch } from "./strategic-merge-patch.js";

const mapList = (...keys: string[]): FieldSemantics => ({ list: { type: "map", keys } });

describe("builtinFieldSemantics lookups", () => {
  const cases: [string, string, string, FieldSemantics | undefined][] = [
    ["", "Pod", "spec.containers", mapList("name")],
    ["", "Pod", "spec.initContainers", mapList("name")],
    ["", "Pod", "spec.ephemeralContainers", mapList("name")],
    ["", "Pod", "spec.containers.ports", mapList("containerPort", "protocol")],
    ["", "Pod", "spec.containers.env", mapList("name")],
    ["", "Pod", "spec.containers.volumeMounts", mapList("mountPath")],
    ["", "Pod", "spec.initContainers.volumeDevices", mapList("devicePath")],
    ["", "Pod", "spec.volumes", { list: { type: "map", keys: ["name"] }, retainKeys: true }],
    ["", "Pod", "spec.imagePullSecrets", mapList("name")],
    ["", "Pod", "spec.hostAliases", mapList("ip")],
    ["", "Pod", "spec.tolerations", { list: { type: "atomic" } }],
    ["", "Pod", "spec.topologySpreadConstraints", mapList("topologyKey", "whenUnsatisfiable")],
    ["", "Pod", "status.conditions", mapList("type")],
    ["", "Pod", "status.podIPs", mapList("ip")],
    ["", "Pod", "metadata.finalizers", { list: { type: "set" } }],
    ["", "Pod", "metadata.ownerReferences", mapList("uid")],
    ["", "Pod", "spec.containers.args", undefined],
    ["", "Pod", "spec.containers.constructor", undefined],
    ["", "Pod", "spec.toString", undefined],
    ["apps", "Deployment", "spec.template.spec.containers.env", mapList("name")],
    ["apps", "Deployment", "spec.template.metadata.finalizers", { list: { type: "set" } }],
    ["apps", "Deployment", "status.conditions", mapList("type")],
    [
      "apps",
      "ReplicaSet",
      "spec.template.spec.volumes",
      { list: { type: "map", keys: ["name"] }, retainKeys: true },
    ],
    ["apps", "DaemonSet", "spec.template.spec.containers", mapList("name")],
    ["apps", "StatefulSet", "spec.template.spec.containers.ports", mapList("containerPort", "protocol")],
    ["batch", "Job", "spec.template.spec.containers", mapList("name")],
    ["batch", "CronJob", "spec.jobTemplate.spec.template.spec.containers.env", mapList("name")],
    ["", "ReplicationController", "spec.template.spec.containers", mapList("name")],
    ["", "PodTemplate", "template.spec.containers", mapList("name")],
    ["", "Service", "spec.ports", mapList("port", "protocol")],
    ["", "Node", "spec.taints", { list: { type: "atomic" } }],
    ["", "Node", "status.conditions", mapList("type")],
    ["", "Node", "status.addresses", mapList("type")],
    ["", "ConfigMap", "data", undefined],
    ["", "ConfigMap", "metadata.finalizers", { list: { type: "set" } }],
    ["", "Secret", "metadata.ownerReferences", mapList("uid")],
    ["", "Event", "related", undefined],
    ["kubevirt.io", "VirtualMachine", "spec.template.spec.domain", undefined],
  ];
  for (const [group, kind, path, expected] of cases) {
    test(`${group || "core"}/${kind} ${path}`, () => {
      assert.deepEqual(builtinFieldSemantics(group, kind)(path.split(".")), expected);
    });
  }
});

const deployment = (): JsonObject => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web", finalizers: ["a", "b"], ownerReferences: [{ uid: "u1", name: "o1" }] },
  spec: {
    replicas: 1,
    template: {
      metadata: { labels: { app: "web" } },
      spec: {
        containers: [
          {
            name: "nginx",
            image: "nginx:1",
            env: [
              { name: "A", value: "1" },
              { name: "B", value: "1" },
            ],
            ports: [{ containerPort: 80, protocol: "TCP" }],
          },
          { name: "sidecar", image: "busybox" },
        ],
        volumes: [{ name: "data", hostPath: { path: "/data" } }],
        tolerations: [{ key: "a", operator: "Exists" }],
      },
    },
  },
  status: {
    conditions: [
      { type: "Available", status: "True" },
      { type: "Progressing", status: "True" },
    ],
  },
});

type Edit = (object: JsonObject) => void;
const podSpec = (object: JsonObject): JsonObject =>
  ((object.spec as JsonObject).template as JsonObject).spec as JsonObject;
const containers = (object: JsonObject): JsonObject[] => podSpec(object).containers as JsonObject[];

describe("kubectl-style strategic merge patches on a Deployment", () => {
  const cases: [string, JsonObject, Edit][] = [
    [
      "apply adds a container in the middle",
      {
        spec: {
          template: {
            spec: {
              "$setElementOrder/containers": [{ name: "nginx" }, { name: "logger" }, { name: "sidecar" }],
              containers: [{ name: "logger", image: "fluentd" }],
            },
          },
        },
      },
      (o) => containers(o).splice(1, 0, { name: "logger", image: "fluentd" }),
    ],
    [
      "patch adds a container (new items first without $setElementOrder)",
      { spec: { template: { spec: { containers: [{ name: "logger", image: "fluentd" }] } } } },
      (o) => containers(o).unshift({ name: "logger", image: "fluentd" }),
    ],
    [
      "apply changes an env var in one container",
      {
        spec: {
          template: {
            spec: {
              "$setElementOrder/containers": [{ name: "nginx" }, { name: "sidecar" }],
              containers: [
                {
                  name: "nginx",
                  "$setElementOrder/env": [{ name: "A" }, { name: "B" }],
                  env: [{ name: "B", value: "2" }],
                },
              ],
            },
          },
        },
      },
      (o) => {
        ((containers(o)[0] as JsonObject).env as JsonObject[])[1] = { name: "B", value: "2" };
      },
    ],
    [
      "apply removes an env var and reorders",
      {
        spec: {
          template: {
            spec: {
              containers: [
                {
                  name: "nginx",
                  "$setElementOrder/env": [{ name: "C" }, { name: "B" }],
                  env: [
                    { name: "C", value: "3" },
                    { name: "A", $patch: "delete" },
                  ],
                },
              ],
            },
          },
        },
      },
      (o) => {
        (containers(o)[0] as JsonObject).env = [
          { name: "C", value: "3" },
          { name: "B", value: "1" },
        ];
      },
    ],
    [
      "delete a container with $patch: delete",
      { spec: { template: { spec: { containers: [{ name: "sidecar", $patch: "delete" }] } } } },
      (o) => containers(o).splice(1, 1),
    ],
    [
      "change the image of one container",
      { spec: { template: { spec: { containers: [{ name: "sidecar", image: "busybox:2" }] } } } },
      (o) => {
        (containers(o)[1] as JsonObject).image = "busybox:2";
      },
    ],
    [
      "add a container port merged by containerPort",
      {
        spec: {
          template: {
            spec: { containers: [{ name: "nginx", ports: [{ containerPort: 443, protocol: "TCP" }] }] },
          },
        },
      },
      (o) => {
        (containers(o)[0] as JsonObject).ports = [
          { containerPort: 443, protocol: "TCP" },
          { containerPort: 80, protocol: "TCP" },
        ];
      },
    ],
    [
      "switch a volume source with $retainKeys",
      {
        spec: {
          template: {
            spec: {
              "$setElementOrder/volumes": [{ name: "data" }],
              volumes: [{ name: "data", $retainKeys: ["emptyDir", "name"], emptyDir: {} }],
            },
          },
        },
      },
      (o) => {
        podSpec(o).volumes = [{ name: "data", emptyDir: {} }];
      },
    ],
    [
      "tolerations are atomic",
      { spec: { template: { spec: { tolerations: [{ key: "b", operator: "Exists" }] } } } },
      (o) => {
        podSpec(o).tolerations = [{ key: "b", operator: "Exists" }];
      },
    ],
    [
      "scale and relabel",
      { spec: { replicas: 3, template: { metadata: { labels: { tier: "fe" } } } } },
      (o) => {
        (o.spec as JsonObject).replicas = 3;
        ((o.spec as JsonObject).template as JsonObject).metadata = { labels: { app: "web", tier: "fe" } };
      },
    ],
    [
      "remove a finalizer",
      { metadata: { "$deleteFromPrimitiveList/finalizers": ["a"] } },
      (o) => {
        (o.metadata as JsonObject).finalizers = ["b"];
      },
    ],
    [
      "add a finalizer",
      { metadata: { finalizers: ["c"] } },
      (o) => {
        (o.metadata as JsonObject).finalizers = ["c", "a", "b"];
      },
    ],
    [
      "add an owner reference merged by uid",
      {
        metadata: {
          ownerReferences: [
            { uid: "u1", controller: true },
            { uid: "u2", name: "o2" },
          ],
        },
      },
      (o) => {
        (o.metadata as JsonObject).ownerReferences = [
          { uid: "u1", name: "o1", controller: true },
          { uid: "u2", name: "o2" },
        ];
      },
    ],
    [
      "update one status condition by type",
      { status: { conditions: [{ type: "Progressing", status: "False" }] } },
      (o) => {
        ((o.status as JsonObject).conditions as JsonObject[])[1] = { type: "Progressing", status: "False" };
      },
    ],
  ];
  const semantics = builtinFieldSemantics("apps", "Deployment");
  for (const [name, patch, edit] of cases) {
    test(name, () => {
      const expected = deployment();
      edit(expected);
      assert.deepEqual(applyStrategicMergePatch(deployment(), patch, semantics), expected);
    });
  }
});

describe("strategic merge patches on other built-in kinds", () => {
  test("Service ports merge by port", () => {
    const service: JsonObject = {
      spec: {
        ports: [
          { port: 80, targetPort: 8080, protocol: "TCP" },
          { port: 443, protocol: "TCP" },
        ],
      },
    };
    const result = applyStrategicMergePatch(
      service,
      { spec: { ports: [{ port: 80, targetPort: 9090 }] } },
      builtinFieldSemantics("", "Service"),
    );
    assert.deepEqual(result, {
      spec: {
        ports: [
          { port: 80, targetPort: 9090, protocol: "TCP" },
          { port: 443, protocol: "TCP" },
        ],
      },
    });
  });

  test("Node taints are replaced whole, addresses merge by type", () => {
    const node: JsonObject = {
      spec: { taints: [{ key: "a", effect: "NoSchedule" }] },
      status: {
        addresses: [
          { type: "InternalIP", address: "10.0.0.1" },
          { type: "Hostname", address: "n1" },
        ],
      },
    };
    const result = applyStrategicMergePatch(
      node,
      {
        spec: { taints: [{ key: "b", effect: "NoExecute" }] },
        status: { addresses: [{ type: "InternalIP", address: "10.0.0.2" }] },
      },
      builtinFieldSemantics("", "Node"),
    );
    assert.deepEqual(result, {
      spec: { taints: [{ key: "b", effect: "NoExecute" }] },
      status: {
        addresses: [
          { type: "InternalIP", address: "10.0.0.2" },
          { type: "Hostname", address: "n1" },
        ],
      },
    });
  });

  test("Pod status conditions merge by type", () => {
    const pod: JsonObject = {
      status: { phase: "Pending", conditions: [{ type: "PodScheduled", status: "True" }] },
    };
    const result = applyStrategicMergePatch(
      pod,
      { status: { phase: "Running", conditions: [{ type: "Ready", status: "True" }] } },
      builtinFieldSemantics("", "Pod"),
    );
    assert.deepEqual(result, {
      status: {
        phase: "Running",
        conditions: [
          { type: "Ready", status: "True" },
          { type: "PodScheduled", status: "True" },
        ],
      },
    });
  });

  test("ConfigMap data merges as a map, with null deleting a key", () => {
    const result = applyStrategicMergePatch(
      { data: { a: "1", b: "2" } },
      { data: { b: null, c: "3" } },
      builtinFieldSemantics("", "ConfigMap"),
    );
    assert.deepEqual(result, { data: { a: "1", c: "3" } });
  });
});
