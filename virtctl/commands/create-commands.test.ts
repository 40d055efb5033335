// `virtctl create vm|instancetype|preference` through commander: which flags count as given,
// the global -n, and the printed YAML. No cluster: these commands never call one.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Command } from "commander";
import { parse } from "yaml";
import type { CommandDeps } from "./command-deps.js";
import { createCommand } from "./create-vm.js";

async function run(...args: string[]): Promise<Record<string, unknown>> {
  let printed = "";
  const stdout = {
    write(text: string) {
      printed += text;
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  const deps = {
    connect: () => assert.fail("create commands never connect"),
    io: { stdin: process.stdin, stdout, stderr: process.stderr },
  } as unknown as CommandDeps;
  const program = new Command("virtctl")
    .option("-n, --namespace <namespace>")
    .exitOverride()
    .addCommand(createCommand(deps));
  await program.parseAsync(args, { from: "user" });
  return parse(printed) as Record<string, unknown>;
}

describe("virtctl create", () => {
  test("vm --instancetype --preference: the matchers, no memory", async () => {
    const vm = (await run(
      "create",
      "vm",
      "--name",
      "web",
      "--instancetype",
      "u1.medium",
      "--preference",
      "fedora",
    )) as {
      spec: {
        instancetype: unknown;
        preference: unknown;
        template: { spec: { domain: Record<string, unknown> } };
      };
    };
    assert.deepEqual(vm.spec.instancetype, { name: "u1.medium" });
    assert.deepEqual(vm.spec.preference, { name: "fedora" });
    assert.equal(vm.spec.template.spec.domain.memory, undefined);
  });

  test("vm: the default --memory does not conflict with --instancetype; a given one does", async () => {
    await assert.rejects(run("create", "vm", "--instancetype", "u1.small", "--memory", "1Gi"), {
      message: /none of the others can be; \[instancetype memory\] were all set/,
    });
  });

  test("vm --infer-instancetype=false and --infer-instancetype VOL", async () => {
    const off = (await run("create", "vm", "--volume-pvc", "src:root", "--infer-instancetype=false")) as {
      spec: { instancetype?: unknown };
    };
    assert.equal(off.spec.instancetype, undefined);
    const named = (await run("create", "vm", "--volume-pvc", "src:root", "--infer-instancetype", "root")) as {
      spec: { instancetype?: unknown };
    };
    assert.deepEqual(named.spec.instancetype, { inferFromVolume: "root" });
  });

  test("instancetype and preference: -n makes them namespaced", async () => {
    const cluster = await run("create", "instancetype", "--name", "big", "--cpu", "8", "--memory", "32Gi");
    assert.equal(cluster.kind, "VirtualMachineClusterInstancetype");
    const namespaced = await run(
      "-n",
      "team-a",
      "create",
      "preference",
      "--name",
      "p",
      "--cpu-topology",
      "spread",
    );
    assert.deepEqual(
      [namespaced.kind, namespaced.metadata],
      ["VirtualMachinePreference", { name: "p", namespace: "team-a" }],
    );
  });
});
