import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { StepTrace, traceProgram } from "./step-trace.js";

/** What a command runner does: reports its run to whichever trace the work belongs to. */
async function runProgram(command: string, args: string[], ms: number): Promise<void> {
  const ended = traceProgram(command, args);
  await sleep(ms);
  ended();
}

describe("StepTrace", () => {
  test("records steps in order with their times, and the programs each step ran, through awaits", async () => {
    const trace = new StepTrace();
    await trace.step("volumes", async () => {
      await runProgram("/usr/bin/qemu-img", ["create", "-q", "-f", "qcow2", "/vm/disk.qcow2"], 20);
    });
    await trace.step("network", async () => {
      await Promise.all([
        runProgram("nsenter", ["--net=/proc/1/ns/net", "--", "ip", "-j", "link", "show"], 5),
        runProgram("nsenter", ["--net=/proc/1/ns/net", "--", "/usr/sbin/sysctl", "-q", "-w", "a.b=1"], 5),
      ]);
    });
    const record = trace.record();
    assert.deepEqual(
      record.steps.map((step) => step.step),
      ["volumes", "network"],
    );
    const [volumes, network] = record.steps;
    assert.ok(volumes && volumes.ms >= 15, `the volumes step took its program's time: ${volumes?.ms} ms`);
    assert.ok(network && network.atMs >= volumes.ms, "the network step began after the volumes step");
    assert.deepEqual(
      record.programs.map((run) => [run.program, run.step]),
      [
        ["qemu-img create", "volumes"],
        ["nsenter ip link", "network"],
        ["nsenter sysctl", "network"],
      ],
      "programs are named without their paths and values, wrappers by what they run",
    );
    assert.ok(record.totalMs >= network.atMs + network.ms - 1);
    assert.ok(Math.abs(record.startedAt - Date.now()) < 5_000, "startedAt is epoch ms");
  });

  test("programs run outside any trace are recorded nowhere", async () => {
    const trace = new StepTrace();
    await runProgram("qemu-img", ["info"], 1);
    await trace.step("empty", async () => {});
    assert.deepEqual(trace.record().programs, []);
  });

  test("a step that fails is still recorded, and its error passes through", async () => {
    const trace = new StepTrace();
    await assert.rejects(
      trace.step("define", async () => {
        throw new Error("refused");
      }),
      /refused/,
    );
    assert.equal(trace.record().steps[0]?.step, "define");
  });
});
