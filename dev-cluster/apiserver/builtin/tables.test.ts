import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonObject } from "../json.js";
import { deploymentTable } from "./apps-tables.js";
import { roleBindingTable } from "./cluster-tables.js";
import { configMapTable, endpointsTable, namespaceTable, nodeTable, serviceTable } from "./core-tables.js";
import { coreEventTable, eventsV1Table } from "./event-table.js";
import { formatLabelSelector } from "./label-selector.js";
import { createdAtTable } from "./table-format.js";

const now = new Date("2024-05-01T12:00:00Z");
const metadata = (name: string, extra: JsonObject = {}): JsonObject => ({
  name,
  creationTimestamp: "2024-04-30T12:00:00Z",
  ...extra,
});

describe("core tables", () => {
  test("nodes: status, roles, version and wide info", () => {
    const node = {
      metadata: metadata("n1", {
        labels: { "node-role.kubernetes.io/control-plane": "", "node-role.kubernetes.io/worker": "" },
      }),
      spec: { unschedulable: true },
      status: {
        conditions: [{ type: "Ready", status: "True" }],
        addresses: [{ type: "InternalIP", address: "192.0.2.10" }],
        nodeInfo: {
          kubeletVersion: "v1.32.0",
          osImage: "Debian",
          kernelVersion: "6.1",
          containerRuntimeVersion: "kubevirt-ts://0.1",
        },
      },
    };
    assert.deepEqual(nodeTable.cells(node, now), [
      "n1",
      "Ready,SchedulingDisabled",
      "control-plane,worker",
      "24h",
      "v1.32.0",
      "192.0.2.10",
      "<none>",
      "Debian",
      "6.1",
      "kubevirt-ts://0.1",
    ]);
    assert.deepEqual(nodeTable.cells({ metadata: metadata("n2") }, now).slice(1, 3), ["Unknown", "<none>"]);
  });

  test("services print ports with node ports and the selector", () => {
    const service: JsonObject = {
      metadata: metadata("web"),
      spec: {
        type: "NodePort",
        clusterIP: "10.96.0.10",
        clusterIPs: ["10.96.0.10"],
        ports: [
          { port: 80, nodePort: 30080, protocol: "TCP" },
          { port: 53, protocol: "UDP" },
        ],
        selector: { app: "web", tier: "a" },
      },
    };
    assert.deepEqual(serviceTable.cells(service, now), [
      "web",
      "NodePort",
      "10.96.0.10",
      "<none>",
      "80:30080/TCP,53/UDP",
      "24h",
      "app=web,tier=a",
    ]);
    const pending = { metadata: metadata("lb"), spec: { type: "LoadBalancer", ports: [] } };
    assert.deepEqual(serviceTable.cells(pending, now).slice(2, 5), ["<none>", "<pending>", "<none>"]);
  });

  test("namespaces, configmaps and endpoints", () => {
    assert.deepEqual(namespaceTable.cells({ metadata: metadata("ns"), status: { phase: "Active" } }, now), [
      "ns",
      "Active",
      "24h",
    ]);
    assert.deepEqual(
      configMapTable.cells({ metadata: metadata("c"), data: { a: "1", b: "2" }, binaryData: { c: "" } }, now),
      ["c", 3, "24h"],
    );
    const endpoints = {
      metadata: metadata("e"),
      subsets: [
        { addresses: [{ ip: "10.0.0.1" }, { ip: "10.0.0.2" }], ports: [{ port: 80 }, { port: 443 }] },
      ],
    };
    assert.deepEqual(
      endpointsTable.cells(endpoints, now)[1],
      "10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 1 more...",
    );
    assert.deepEqual(endpointsTable.cells({ metadata: metadata("e") }, now)[1], "<none>");
  });
});

describe("other tables", () => {
  test("deployments", () => {
    const deployment = {
      metadata: metadata("web"),
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: "web" } },
        template: {
          spec: {
            containers: [
              { name: "web", image: "nginx" },
              { name: "log", image: "busybox" },
            ],
          },
        },
      },
      status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
    };
    assert.deepEqual(deploymentTable.cells(deployment, now), [
      "web",
      "2/3",
      3,
      2,
      "24h",
      "web,log",
      "nginx,busybox",
      "app=web",
    ]);
    assert.deepEqual(deploymentTable.cells({ metadata: metadata("new") }, now).slice(1, 4), ["0/0", 0, 0]);
  });

  test("events print like kubectl get events, the name only wide", () => {
    const event = {
      metadata: metadata("p.17a"),
      type: "Warning",
      reason: "BackOff",
      involvedObject: { kind: "Pod", name: "p", fieldPath: "spec.containers{a}" },
      source: { component: "kubelet", host: "n1" },
      message: "Back-off restarting failed container\n",
      firstTimestamp: "2024-05-01T11:00:00Z",
      lastTimestamp: "2024-05-01T11:58:00Z",
      count: 7,
    };
    assert.deepEqual(coreEventTable.cells(event, now), [
      "p.17a",
      "2m",
      "Warning",
      "BackOff",
      "pod/p",
      "spec.containers{a}",
      "kubelet, n1",
      "Back-off restarting failed container",
      "60m",
      7,
    ]);
    assert.deepEqual(
      coreEventTable.columns.filter((c) => c.priority === 0).map((c) => c.name),
      ["Last Seen", "Type", "Reason", "Object", "Message"],
    );
    const v1 = {
      metadata: metadata("e"),
      type: "Normal",
      reason: "Scheduled",
      regarding: { kind: "Pod", name: "p" },
      note: "assigned",
      reportingController: "default-scheduler",
      eventTime: "2024-05-01T11:59:30.000000Z",
    };
    assert.deepEqual(eventsV1Table.cells(v1, now), [
      "e",
      "30s",
      "Normal",
      "Scheduled",
      "pod/p",
      "",
      "default-scheduler",
      "assigned",
      "30s",
      1,
    ]);
  });

  test("role bindings and created-at tables", () => {
    const binding: JsonObject = {
      metadata: metadata("b"),
      roleRef: { kind: "ClusterRole", name: "admin" },
      subjects: [
        { kind: "User", name: "alice" },
        { kind: "ServiceAccount", name: "sa", namespace: "ns" },
      ],
    };
    assert.deepEqual(roleBindingTable.cells(binding, now), [
      "b",
      "ClusterRole/admin",
      "24h",
      "alice",
      "",
      "ns/sa",
    ]);
    assert.deepEqual(createdAtTable.cells({ metadata: metadata("crd") }, now), [
      "crd",
      "2024-04-30T12:00:00Z",
    ]);
  });
});

describe("label selectors", () => {
  const selector: JsonObject = {
    matchLabels: { app: "web" },
    matchExpressions: [
      { key: "tier", operator: "In", values: ["b", "a"] },
      { key: "canary", operator: "DoesNotExist" },
    ],
  };

  test("format as metav1.FormatLabelSelector", () => {
    assert.equal(formatLabelSelector(selector), "app=web,!canary,tier in (a,b)");
    assert.equal(formatLabelSelector({}), "<none>");
  });
});
