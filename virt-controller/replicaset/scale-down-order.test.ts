import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { deepFreeze, type Frozen } from "../../runtime/index.js";
import type { VirtualMachineInstance } from "../kinds.js";
import { smallVmiSpec } from "../testing/fixtures.js";
import { inDeletionOrder } from "./scale-down-order.js";

function vmi(
  name: string,
  phase: "Pending" | "Scheduled" | "Running",
  options: { ready?: boolean; migrating?: boolean; created?: string } = {},
): Frozen<VirtualMachineInstance> {
  return deepFreeze<VirtualMachineInstance>({
    metadata: { name, namespace: "default", creationTimestamp: options.created ?? "2026-01-01T00:00:00Z" },
    spec: smallVmiSpec(),
    status: {
      phase,
      conditions: [{ type: "Ready", status: options.ready ? "True" : "False" }],
      ...(options.migrating ? { migrationState: { completed: false } } : {}),
    },
  });
}

const names = (vmis: readonly Frozen<VirtualMachineInstance>[]) => vmis.map((v) => v.metadata?.name);

describe("inDeletionOrder: which VMIs a scale-down deletes first", () => {
  test("not yet running < migrating < running but not Ready < Ready", () => {
    const order = inDeletionOrder([
      vmi("ready", "Running", { ready: true }),
      vmi("unready", "Running"),
      vmi("migrating", "Running", { ready: true, migrating: true }),
      vmi("scheduled", "Scheduled"),
      vmi("pending", "Pending"),
    ]);
    assert.deepEqual(names(order).slice(0, 2).sort(), ["pending", "scheduled"]);
    assert.deepEqual(names(order).slice(2), ["migrating", "unready", "ready"]);
  });

  test("among equals the newest goes first, then the last name (made in the same second)", () => {
    const order = inDeletionOrder([
      vmi("web-b", "Running", { ready: true, created: "2026-01-01T00:00:00Z" }),
      vmi("web-a", "Running", { ready: true, created: "2026-01-01T00:00:05Z" }),
      vmi("web-c", "Running", { ready: true, created: "2026-01-01T00:00:00Z" }),
    ]);
    assert.deepEqual(names(order), ["web-a", "web-c", "web-b"]);
  });
});
