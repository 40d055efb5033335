import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Pod } from "../kinds.js";
import { inDeletionOrder } from "./deletion-order.js";

function pod(
  name: string,
  options: {
    node?: string;
    phase?: NonNullable<Pod["status"]>["phase"];
    readySince?: string;
    created?: string;
    restarts?: number;
  },
): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, creationTimestamp: options.created ?? "2024-01-01T00:00:00Z" },
    spec: { containers: [{ name: "c" }], ...(options.node ? { nodeName: options.node } : {}) },
    status: {
      phase: options.phase ?? "Running",
      conditions: options.readySince
        ? [{ type: "Ready", status: "True", lastTransitionTime: options.readySince }]
        : [],
      containerStatuses: [
        {
          name: "c",
          image: "",
          imageID: "",
          ready: !!options.readySince,
          restartCount: options.restarts ?? 0,
        },
      ],
    },
  };
}

describe("which pods a ReplicaSet deletes first", () => {
  test("unscheduled, then pending, then not ready, then crowded nodes, then recently ready, then restarts, then newest", () => {
    const pods = [
      pod("old-ready", { node: "a", readySince: "2024-01-01T00:01:00Z" }),
      pod("unscheduled", { phase: "Pending" }),
      pod("pending", { node: "b", phase: "Pending" }),
      pod("not-ready", { node: "b" }),
      pod("crowded-1", { node: "c", readySince: "2024-01-01T00:01:00Z" }),
      pod("crowded-2", { node: "c", readySince: "2024-01-01T00:01:00Z", created: "2024-01-01T00:00:01Z" }),
      pod("recently-ready", { node: "d", readySince: "2024-01-01T00:05:00Z" }),
      pod("restarting", { node: "e", readySince: "2024-01-01T00:01:00Z", restarts: 3 }),
    ];
    assert.deepEqual(
      inDeletionOrder(pods).map((p) => p.metadata?.name),
      [
        "unscheduled",
        "pending",
        "not-ready",
        "crowded-2",
        "crowded-1",
        "recently-ready",
        "restarting",
        "old-ready",
      ],
    );
  });
});
