import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { humanLogLine } from "./human-log-line.js";

// Lines show the local time of day; fix the zone so the expected lines hold on any machine.
process.env.TZ = "UTC";
const TIME = Date.parse("2024-05-01T14:03:07.123Z");
const base = { time: TIME, pid: 4242, hostname: "host-a" };

describe("humanLogLine: a pino record as one short line", () => {
  test("a reconcile's record: time, level, component and controller, the object, the message, other fields", () => {
    const line = humanLogLine({
      ...base,
      level: 30,
      component: "virt-controller",
      controller: "vmi",
      namespace: "default",
      name: "vm-tiny",
      reconcileId: "2f1c9a3e-0000-4000-8000-000000000000",
      pod: "virt-launcher-vm-tiny-x2k",
      msg: "created the launcher pod",
    });
    assert.equal(
      line,
      "14:03:07.123 INFO  virt-controller vmi default/vm-tiny: created the launcher pod pod=virt-launcher-vm-tiny-x2k",
    );
  });

  test("no component or object: only what the record says; strings with spaces quoted, objects as JSON", () => {
    const line = humanLogLine({
      ...base,
      level: 40,
      UV_THREADPOOL_SIZE: 4,
      reason: "not enough threads",
      versions: { libvirt: "10.0.0" },
      msg: "start virt-handler with UV_THREADPOOL_SIZE=8",
    });
    assert.equal(
      line,
      '14:03:07.123 WARN  start virt-handler with UV_THREADPOOL_SIZE=8 UV_THREADPOOL_SIZE=4 reason="not enough threads" versions={"libvirt":"10.0.0"}',
    );
  });

  test("the root's name is the component; a name with a namespace is the object's", () => {
    const options = { component: "dev-cluster" };
    assert.equal(
      humanLogLine({ ...base, level: 30, name: "dev-cluster", msg: "API server listening" }, options),
      "14:03:07.123 INFO  dev-cluster API server listening",
    );
    assert.equal(
      humanLogLine(
        { ...base, level: 20, name: "web-1", namespace: "default", controller: "replica-set", msg: "synced" },
        options,
      ),
      "14:03:07.123 DEBUG dev-cluster replica-set default/web-1: synced",
    );
  });

  test("an error: its message among the fields, its stack below an error-level line", () => {
    const err = {
      type: "Error",
      message: "connection refused",
      stack: "Error: connection refused\n    at connect (x.js:1:1)",
    };
    assert.equal(
      humanLogLine({ ...base, level: 50, component: "virt-handler", err, msg: "libvirt is gone" }),
      [
        '14:03:07.123 ERROR virt-handler libvirt is gone err="connection refused"',
        "    Error: connection refused",
        "        at connect (x.js:1:1)",
      ].join("\n"),
    );
    assert.equal(
      humanLogLine({ ...base, level: 40, component: "virt-handler", err, msg: "retrying" }),
      '14:03:07.123 WARN  virt-handler retrying err="connection refused"',
      "below error level the stack is left out",
    );
  });
});
