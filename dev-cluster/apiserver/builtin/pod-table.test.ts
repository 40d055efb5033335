import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonObject } from "../json.js";
import { podTable } from "./pod-table.js";

const now = new Date("2024-05-01T12:00:00Z");
const created = "2024-05-01T11:00:00Z";

function pod(spec: JsonObject, status: JsonObject, metadata: JsonObject = {}): JsonObject {
  return { metadata: { name: "p", creationTimestamp: created, ...metadata }, spec, status };
}

const oneContainer = { containers: [{ name: "a", image: "x" }] };
const running = { running: { startedAt: created } };

/** [case, pod, READY, STATUS, RESTARTS] */
const cases: [string, JsonObject, string, string, string][] = [
  ["pending without statuses", pod(oneContainer, { phase: "Pending" }), "0/1", "Pending", "0"],
  [
    "running and ready",
    pod(oneContainer, {
      phase: "Running",
      containerStatuses: [{ name: "a", ready: true, restartCount: 0, state: running }],
    }),
    "1/1",
    "Running",
    "0",
  ],
  [
    "waiting to pull",
    pod(oneContainer, {
      phase: "Pending",
      containerStatuses: [
        { name: "a", ready: false, restartCount: 0, state: { waiting: { reason: "ContainerCreating" } } },
      ],
    }),
    "0/1",
    "ContainerCreating",
    "0",
  ],
  [
    "crash looping, restarted five minutes ago",
    pod(oneContainer, {
      phase: "Running",
      containerStatuses: [
        {
          name: "a",
          ready: false,
          restartCount: 4,
          state: { waiting: { reason: "CrashLoopBackOff" } },
          lastState: { terminated: { exitCode: 1, finishedAt: "2024-05-01T11:55:00Z" } },
        },
      ],
    }),
    "0/1",
    "CrashLoopBackOff",
    "4 (5m ago)",
  ],
  [
    "terminated without a reason",
    pod(oneContainer, {
      phase: "Failed",
      containerStatuses: [{ name: "a", restartCount: 0, state: { terminated: { exitCode: 137 } } }],
    }),
    "0/1",
    "ExitCode:137",
    "0",
  ],
  [
    "completed",
    pod(oneContainer, {
      phase: "Succeeded",
      containerStatuses: [
        { name: "a", restartCount: 0, state: { terminated: { exitCode: 0, reason: "Completed" } } },
      ],
    }),
    "0/1",
    "Completed",
    "0",
  ],
  [
    "init container running",
    pod(
      {
        initContainers: [
          { name: "i1", image: "x" },
          { name: "i2", image: "x" },
        ],
        ...oneContainer,
      },
      {
        phase: "Pending",
        initContainerStatuses: [
          { name: "i1", restartCount: 0, state: { terminated: { exitCode: 0, reason: "Completed" } } },
          { name: "i2", restartCount: 0, state: running },
        ],
        containerStatuses: [
          { name: "a", restartCount: 0, state: { waiting: { reason: "PodInitializing" } } },
        ],
      },
    ),
    "0/1",
    "Init:1/2",
    "0",
  ],
  [
    "init container failing",
    pod(
      { initContainers: [{ name: "i1", image: "x" }], ...oneContainer },
      {
        phase: "Pending",
        initContainerStatuses: [
          { name: "i1", restartCount: 2, state: { waiting: { reason: "CrashLoopBackOff" } } },
        ],
      },
    ),
    "0/1",
    "Init:CrashLoopBackOff",
    "2",
  ],
  [
    "a started sidecar counts as a ready container",
    pod(
      { initContainers: [{ name: "proxy", image: "x", restartPolicy: "Always" }], ...oneContainer },
      {
        phase: "Running",
        conditions: [{ type: "Initialized", status: "True" }],
        initContainerStatuses: [
          { name: "proxy", restartCount: 0, started: true, ready: true, state: running },
        ],
        containerStatuses: [{ name: "a", ready: true, restartCount: 0, state: running }],
      },
    ),
    "2/2",
    "Running",
    "0",
  ],
  [
    "being deleted",
    pod(oneContainer, { phase: "Running" }, { deletionTimestamp: "2024-05-01T11:59:00Z" }),
    "0/1",
    "Terminating",
    "0",
  ],
  [
    "evicted (status reason wins over phase)",
    pod(oneContainer, { phase: "Failed", reason: "Evicted" }),
    "0/1",
    "Evicted",
    "0",
  ],
  [
    "scheduling gated",
    pod(oneContainer, {
      phase: "Pending",
      conditions: [{ type: "PodScheduled", status: "False", reason: "SchedulingGated" }],
    }),
    "0/1",
    "SchedulingGated",
    "0",
  ],
];

describe("pod table", () => {
  for (const [name, object, ready, status, restarts] of cases) {
    test(name, () => {
      const [, readyCell, statusCell, restartsCell, ageCell] = podTable.cells(object, now);
      assert.deepEqual([readyCell, statusCell, restartsCell], [ready, status, restarts]);
      assert.equal(ageCell, "60m");
    });
  }

  test("wide columns", () => {
    const object = pod(
      { ...oneContainer, nodeName: "node-1", readinessGates: [{ conditionType: "example.com/ready" }] },
      {
        phase: "Running",
        podIPs: [{ ip: "10.244.0.5" }],
        conditions: [{ type: "example.com/ready", status: "True" }],
      },
    );
    assert.deepEqual(podTable.cells(object, now).slice(5), ["10.244.0.5", "node-1", "<none>", "1/1"]);
    assert.deepEqual(podTable.cells(pod(oneContainer, {}), now).slice(5), [
      "<none>",
      "<none>",
      "<none>",
      "<none>",
    ]);
    assert.deepEqual(
      podTable.columns.map((c) => `${c.name}:${c.priority}`),
      [
        "Name:0",
        "Ready:0",
        "Status:0",
        "Restarts:0",
        "Age:0",
        "IP:1",
        "Node:1",
        "Nominated Node:1",
        "Readiness Gates:1",
      ],
    );
  });
});
