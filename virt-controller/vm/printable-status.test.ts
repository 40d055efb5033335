import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { PrintableStatus } from "../../api/index.js";
import { cachedVm, cachedVmi } from "../testing/objects.js";
import { type PrintableStatusInput, printableStatus } from "./printable-status.js";

const base: PrintableStatusInput = {
  vm: cachedVm("Always"),
  vmi: undefined,
  strategy: "Always",
  startExpected: false,
  stopExpected: false,
  failures: 0,
  unboundClaims: false,
  dataVolumes: "ready",
};

const unschedulable = [
  { type: "PodScheduled", status: "False" as const, reason: "Unschedulable", message: "0/1 nodes" },
];
const paused = [{ type: "Paused", status: "True" as const }];
const pullError = (reason: string) => [{ type: "Synchronized", status: "False" as const, reason }];

describe("printableStatus: KubeVirt's rules, first match wins", () => {
  const cases: [PrintableStatus, Partial<PrintableStatusInput>][] = [
    ["Stopped", {}],
    ["Starting", { startExpected: true }],
    ["Starting", { vmi: cachedVmi(undefined) }],
    ["Starting", { vmi: cachedVmi("Scheduling") }],
    ["Starting", { vmi: cachedVmi("Scheduled") }],
    ["Running", { vmi: cachedVmi("Running") }],
    ["Paused", { vmi: cachedVmi("Running", { conditions: paused }) }],
    ["Stopping", { vmi: cachedVmi("Running", { deleting: true }) }],
    ["Stopping", { vmi: cachedVmi("Running"), stopExpected: true }],
    ["Stopped", { vmi: cachedVmi("Succeeded", { deleting: true }) }],
    ["Terminating", { vm: cachedVm("Always", undefined, { deleting: true }), vmi: cachedVmi("Running") }],
    ["ErrorUnschedulable", { vmi: cachedVmi("Scheduling", { conditions: unschedulable }) }],
    ["ErrImagePull", { vmi: cachedVmi("Scheduling", { conditions: pullError("ErrImagePull") }) }],
    ["ImagePullBackOff", { vmi: cachedVmi("Scheduling", { conditions: pullError("ImagePullBackOff") }) }],
    ["ErrorPvcNotFound", { vmi: cachedVmi("Pending", { conditions: pullError("FailedPvcNotFound") }) }],
    ["WaitingForVolumeBinding", { vmi: cachedVmi("Scheduling"), unboundClaims: true }],
    ["WaitingForVolumeBinding", { startExpected: true, unboundClaims: true }],
    ["Stopped", { unboundClaims: true }],
    ["Provisioning", { dataVolumes: "provisioning" }],
    ["Provisioning", { dataVolumes: "provisioning", unboundClaims: true }],
    ["DataVolumeError", { dataVolumes: "error" }],
    ["Running", { vmi: cachedVmi("Running"), dataVolumes: "error" }],
    ["Running", { vmi: cachedVmi("Running"), unboundClaims: true }],
    ["CrashLoopBackOff", { failures: 2 }],
    ["CrashLoopBackOff", { failures: 1, vmi: cachedVmi("Failed") }],
    ["Starting", { failures: 1, startExpected: true }],
    ["Stopped", { failures: 1, strategy: "Manual" }],
    ["Unknown", { vmi: cachedVmi("Unknown") }],
  ];
  for (const [expected, input] of cases) {
    test(`${expected} for ${JSON.stringify({ ...input, vm: undefined, vmi: input.vmi?.status ?? (input.vmi ? {} : undefined) })}`, () => {
      assert.equal(printableStatus({ ...base, ...input }), expected);
    });
  }
});
