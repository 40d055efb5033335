import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { startTestApiServer, type TestApiServer } from "../harness/api-server-fixture.js";

// dist/test/api → the source tree's crds/ and api/testdata/
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const crdFiles = readdirSync(join(root, "crds")).map((file) => join(root, "crds", file));
const example = (name: string) => join(root, "api", "testdata", name);

describe("the kubevirt.io/v1 CRDs (and CDI's DataVolume) on the dev-cluster API server", () => {
  let cluster: TestApiServer;

  before(async () => {
    cluster = await startTestApiServer();
  });
  after(async () => cluster?.close());

  test("every generated CRD is accepted (so it is structural, as a real cluster requires) and becomes Established", async () => {
    assert.equal(crdFiles.length, 11);
    for (const file of crdFiles) {
      const applied = await cluster.kubectl(["apply", "--server-side", "-f", file]);
      assert.equal(applied.code, 0, `${file}: ${applied.stderr}`);
    }
    const waited = await cluster.kubectl([
      "wait",
      "--for=condition=established",
      "crd",
      "--all",
      "--timeout=30s",
    ]);
    assert.equal(waited.code, 0, waited.stderr);
    const resources = await cluster.kubectl(["api-resources", "--api-group=kubevirt.io"]);
    for (const [plural, short] of [
      ["virtualmachines", "vm"],
      ["virtualmachineinstances", "vmi"],
      ["virtualmachineinstancereplicasets", "vmirs"],
      ["virtualmachineinstancemigrations", "vmim"],
      ["kubevirts", "kv"],
    ]) {
      assert.match(resources.stdout, new RegExp(`^${plural}\\s+${short}\\b`, "m"));
    }
    const cdi = await cluster.kubectl(["api-resources", "--api-group=cdi.kubevirt.io"]);
    assert.match(cdi.stdout, /^datavolumes\s+dv,dvs\b/m);
    const pools = await cluster.kubectl(["api-resources", "--api-group=pool.kubevirt.io"]);
    assert.match(pools.stdout, /^virtualmachinepools\s+vmpool\b/m);
    const sizes = await cluster.kubectl(["api-resources", "--api-group=instancetype.kubevirt.io"]);
    for (const plural of [
      "virtualmachineinstancetypes",
      "virtualmachineclusterinstancetypes",
      "virtualmachinepreferences",
      "virtualmachineclusterpreferences",
    ]) {
      assert.match(sizes.stdout, new RegExp(`^${plural}\\s`, "m"));
    }
  });

  test("manifests in the shape of KubeVirt's own examples apply unchanged and print KubeVirt's columns", async () => {
    for (const name of [
      "vm-cirros.yaml",
      "vmi-emptydisk.yaml",
      "vmirs-cirros.yaml",
      "vm-fedora-datavolume.yaml",
      "vmim.yaml",
    ]) {
      const applied = await cluster.kubectl(["apply", "-f", example(name)]);
      assert.equal(applied.code, 0, `${name}: ${applied.stderr}`);
    }
    const vms = await cluster.kubectl(["get", "vm"]);
    assert.match(vms.stdout, /^NAME\s+AGE\s+STATUS\s+READY/);
    const vmis = await cluster.kubectl(["get", "vmi"]);
    assert.match(vmis.stdout, /^NAME\s+AGE\s+PHASE\s+IP\s+NODENAME\s+READY/);
    const all = await cluster.kubectl(["get", "all", "-o", "name"]);
    assert.match(all.stdout, /virtualmachine\.kubevirt\.io\/vm-cirros/);
  });

  test("an invalid VirtualMachine is rejected with its field paths", async () => {
    const result = await cluster.kubectl(["apply", "-f", "-"], {
      input: `apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: broken
spec:
  runStrategy: Sometimes
  template:
    spec:
      domain:
        cpu:
          cores: "many"
        devices: {}
`,
    });
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /The VirtualMachine "broken" is invalid/);
    assert.match(result.stderr, /spec\.runStrategy: Unsupported value: "Sometimes"/);
    assert.match(result.stderr, /spec\.template\.spec\.domain\.cpu\.cores/);
  });

  test("the VMI has no status subresource: its status is written with the object", async () => {
    const patched = await cluster.kubectl([
      "patch",
      "vmi",
      "vmi-emptydisk",
      "--type=merge",
      "-p",
      '{"status":{"phase":"Scheduling"}}',
    ]);
    assert.equal(patched.code, 0, patched.stderr);
    const phase = await cluster.kubectl(["get", "vmi", "vmi-emptydisk", "-o", "jsonpath={.status.phase}"]);
    assert.equal(phase.stdout, "Scheduling");
    const vmStatus = await cluster.kubectl([
      "patch",
      "vm",
      "vm-cirros",
      "--type=merge",
      "-p",
      '{"status":{"printableStatus":"Running"}}',
    ]);
    assert.equal(vmStatus.code, 0);
    const printable = await cluster.kubectl([
      "get",
      "vm",
      "vm-cirros",
      "-o",
      "jsonpath={.status.printableStatus}",
    ]);
    assert.equal(printable.stdout, "", "the VM's status goes through its status subresource only");
  });
});
