// virtctl expand through the API server's aggregation to virt-api: --vm prints the stored VM with its
// instancetype applied, as YAML or JSON; --file (a path or - for stdin) expands a VM not stored;
// bad flags and what cannot be expanded end in one line.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parse } from "yaml";
import { clusterInstancetypeKind } from "../../api/index.js";
import { type VirtualMachine, vmKind } from "../../virt-api/kinds.js";
import { TEST_NAMESPACE, vmManifest } from "../../virt-api/testing/test-objects.js";
import { startVirtctlCluster, type VirtctlCluster } from "../testing/virtctl-cluster.js";

function sizedVm(name: string, instancetype = "it-expand"): VirtualMachine {
  const vm = vmManifest(name, "Halted");
  const domain = vm.spec.template.spec?.domain;
  if (domain) delete domain.resources;
  return { ...vm, spec: { ...vm.spec, instancetype: { name: instancetype } } };
}

describe("virtctl expand", () => {
  let cluster: VirtctlCluster;
  let directory: string;
  before(async () => {
    cluster = await startVirtctlCluster();
    directory = await mkdtemp(join(tmpdir(), "virtctl-expand-"));
    await cluster.fixture.client.resource(clusterInstancetypeKind).create({
      apiVersion: "instancetype.kubevirt.io/v1beta1",
      kind: "VirtualMachineClusterInstancetype",
      metadata: { name: "it-expand" },
      spec: { cpu: { guest: 3 }, memory: { guest: "768Mi" } },
    });
    await cluster.fixture.client.resource(vmKind).create(sizedVm("stored-vm"));
  });
  after(async () => {
    await cluster?.close();
    await rm(directory, { recursive: true, force: true });
  });

  const assertSized = (vm: VirtualMachine) => {
    assert.equal(vm.spec.instancetype, undefined);
    assert.equal(vm.spec.template.spec?.domain.memory?.guest, "768Mi");
    assert.equal(vm.spec.template.spec?.domain.cpu?.sockets, 3);
  };

  test("--vm prints the stored VM expanded, as YAML by default and as JSON with -o json", async () => {
    const yaml = await cluster.run(["expand", "--vm", "stored-vm", "-n", TEST_NAMESPACE]);
    assert.equal(yaml.code, 0, yaml.stderr);
    assertSized(parse(yaml.stdout) as VirtualMachine);
    const json = await cluster.run(["expand", "--vm", "stored-vm", "-n", TEST_NAMESPACE, "-o", "json"]);
    assert.equal(json.code, 0, json.stderr);
    assertSized(JSON.parse(json.stdout) as VirtualMachine);
  });

  test("--file expands a VM from a file or from stdin, without storing it", async () => {
    const path = join(directory, "vm.yaml");
    await writeFile(path, JSON.stringify(sizedVm("from-file")));
    const fromFile = await cluster.run(["expand", "--file", path, "-n", TEST_NAMESPACE]);
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assertSized(parse(fromFile.stdout) as VirtualMachine);
    const fromStdin = await cluster.run(["expand", "-f", "-", "-n", TEST_NAMESPACE], {
      input: JSON.stringify(sizedVm("from-stdin")),
    });
    assert.equal(fromStdin.code, 0, fromStdin.stderr);
    assertSized(parse(fromStdin.stdout) as VirtualMachine);
    const stored = await cluster.fixture.client.resource(vmKind).list({ namespace: TEST_NAMESPACE });
    assert.deepEqual(
      stored.items.map((vm) => vm.metadata?.name),
      ["stored-vm"],
    );
  });

  test("one line for bad flags and for what cannot be expanded", async () => {
    const cases: [string[], RegExp][] = [
      [["expand"], /VirtualMachine name or file must be provided/],
      [["expand", "--vm", "stored-vm", "-o", "xml"], /not supported output format defined: xml/],
      [["expand", "--vm", "a", "--file", "b"], /cannot be used with/],
      [["expand", "--vm", "absent-vm", "-n", TEST_NAMESPACE], /virtualmachine "absent-vm" not found/],
    ];
    for (const [args, expected] of cases) {
      const result = await cluster.run(args);
      assert.equal(result.code, 1, `${args.join(" ")}: ${result.stdout}`);
      assert.equal(result.stderr.trimEnd().split("\n").length, 1, result.stderr);
      assert.match(result.stderr, expected);
    }
    const conflicting = sizedVm("conflicting");
    const domain = conflicting.spec.template.spec?.domain;
    if (domain) domain.memory = { guest: "1Gi" };
    const refused = await cluster.run(["expand", "-f", "-", "-n", TEST_NAMESPACE], {
      input: JSON.stringify(conflicting),
    });
    assert.equal(refused.code, 1, refused.stdout);
    assert.match(
      refused.stderr,
      /error expanding VirtualMachine - conflicting in namespace - default: VM field\(s\) spec\.template\.spec\.domain\.memory\.guest conflicts with selected instance type/,
    );
  });
});
