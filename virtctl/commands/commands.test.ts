// virtctl's commands end to end: the compiled virtctl as a child process, with a kubeconfig,
// against the dev API server, which proxies subresources.kubevirt.io to virt-api in-process
// (API aggregation); real kubectl for what a user would check.
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parse, stringify } from "yaml";
import { type VirtualMachine, type VirtualMachineInstance, vmiKind, vmKind } from "../../virt-api/kinds.js";
import { createVm, createVmi, TEST_NAMESPACE, vmManifest } from "../../virt-api/testing/test-objects.js";
import { startVirtctlCluster, type VirtctlCluster } from "../testing/virtctl-cluster.js";

describe("virtctl commands through the API server's aggregation to virt-api", () => {
  let cluster: VirtctlCluster;

  before(async () => {
    cluster = await startVirtctlCluster();
  });
  after(() => cluster?.close());

  const vm = (name: string, namespace = TEST_NAMESPACE): Promise<VirtualMachine> =>
    cluster.fixture.client.resource(vmKind).get({ namespace, name });
  const vmi = (name: string): Promise<VirtualMachineInstance> =>
    cluster.fixture.client.resource(vmiKind).get({ namespace: TEST_NAMESPACE, name });
  /** stderr holds exactly one line, and it matches. */
  const assertOneLineError = (result: { code: number; stderr: string }, expected: RegExp | string) => {
    assert.equal(result.code, 1, `exit status; stderr: ${result.stderr}`);
    const lines = result.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 1, `one line: ${JSON.stringify(result.stderr)}`);
    if (typeof expected === "string")
      assert.ok(lines[0]?.includes(expected), `"${lines[0]}" has "${expected}"`);
    else assert.match(lines[0] ?? "", expected);
  };

  test("start on a Halted VM sets runStrategy Always", async () => {
    await createVm(cluster.fixture.client, "halted-vm", "Halted");
    const result = await cluster.run(["start", "halted-vm"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "VM halted-vm was scheduled to start\n");
    assert.equal((await vm("halted-vm")).spec.runStrategy, "Always");
    const shown = await cluster.kubectl(["get", "vm", "halted-vm", "-o", "jsonpath={.spec.runStrategy}"]);
    assert.equal(shown.stdout, "Always");
  });

  test("start --dry-run is checked by the server and changes nothing", async () => {
    await createVm(cluster.fixture.client, "dry-vm", "Halted");
    const result = await cluster.run(["start", "dry-vm", "--dry-run"]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /VM dry-vm was scheduled to start \(dry run/);
    assert.equal((await vm("dry-vm")).spec.runStrategy, "Halted");
  });

  test("stop on an Always VM sets runStrategy Halted; --grace-period 0 --force also shortens the VMI's grace", async () => {
    await createVm(cluster.fixture.client, "always-vm", "Always");
    await createVmi(cluster.fixture.client, "always-vm", "Running");
    const result = await cluster.run(["stop", "always-vm", "--grace-period", "0", "--force"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "VM always-vm was scheduled to stop\n");
    assert.equal((await vm("always-vm")).spec.runStrategy, "Halted");
    assert.equal((await vmi("always-vm")).spec.terminationGracePeriodSeconds, 0);
  });

  test("restart of a RerunOnFailure VM asks for Stop of its VMI, then Start; the strategy stays", async () => {
    await createVm(cluster.fixture.client, "rerun-vm", "RerunOnFailure");
    const running = await createVmi(cluster.fixture.client, "rerun-vm", "Running");
    const result = await cluster.run(["restart", "rerun-vm"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "VM rerun-vm was scheduled to restart\n");
    const changed = await vm("rerun-vm");
    assert.equal(changed.spec.runStrategy, "RerunOnFailure");
    assert.deepEqual(changed.status?.stateChangeRequests, [
      { action: "Stop", uid: running.metadata?.uid },
      { action: "Start" },
    ]);
  });

  test("start of a Manual VM asks for Start; --force without --grace-period=0 is refused before asking", async () => {
    await createVm(cluster.fixture.client, "manual-vm", "Manual");
    const started = await cluster.run(["start", "manual-vm", "--paused"]);
    assert.equal(started.code, 0, started.stderr);
    assert.deepEqual((await vm("manual-vm")).status?.stateChangeRequests, [
      { action: "Start", data: { paused: "true" } },
    ]);
    assertOneLineError(
      await cluster.run(["restart", "manual-vm", "--force"]),
      "--force needs --grace-period=0",
    );
  });

  test("virt-api's 409 is passed on: starting a running VM", async () => {
    await createVm(cluster.fixture.client, "running-vm", "Always");
    await createVmi(cluster.fixture.client, "running-vm", "Running");
    const result = await cluster.run(["start", "running-vm"]);
    assertOneLineError(
      result,
      'error: cannot start VirtualMachine running-vm: Operation cannot be fulfilled on virtualmachine.kubevirt.io "running-vm": VM is already running',
    );
  });

  test("pause vmi reaches the node's virt-handler; pause vm of a VM without a VMI says to start it", async () => {
    await createVm(cluster.fixture.client, "pause-vm", "Always");
    await createVmi(cluster.fixture.client, "pause-vm", "Running");
    const paused = await cluster.run(["pause", "vmi", "pause-vm"]);
    assert.equal(paused.code, 0, paused.stderr);
    assert.equal(paused.stdout, "VMI pause-vm was scheduled to pause\n");
    const seen = cluster.fixture.handler.requests.filter((request) =>
      request.path.endsWith("/pause-vm/pause"),
    );
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.verifiedClient, "virt-api");

    const notPaused = await cluster.run(["unpause", "vm", "pause-vm"]);
    assertOneLineError(notPaused, "VMI is not paused");

    await createVm(cluster.fixture.client, "no-vmi-vm", "Halted");
    assertOneLineError(
      await cluster.run(["pause", "vm", "no-vmi-vm"]),
      "error: VM no-vmi-vm is not running (it has no VMI): start it with `virtctl start no-vmi-vm`",
    );
  });

  test("a missing VM, VMI or namespace is named", async () => {
    assertOneLineError(
      await cluster.run(["stop", "nothing-here"]),
      'error: virtualmachine "nothing-here" not found in namespace "default"',
    );
    assertOneLineError(
      await cluster.run(["pause", "vmi", "nothing-here"]),
      'error: virtualmachineinstance "nothing-here" not found in namespace "default"',
    );
    assertOneLineError(
      await cluster.run(["-n", "no-such-namespace", "start", "nothing-here"]),
      'error: namespace "no-such-namespace" not found',
    );
    assertOneLineError(
      await cluster.run(["console", "nothing-here"]),
      'error: virtualmachineinstance "nothing-here" not found in namespace "default"',
    );
  });

  test("console of a stopped VM says how to start it, at once", async () => {
    await createVm(cluster.fixture.client, "stopped-vm", "Halted");
    assertOneLineError(
      await cluster.run(["console", "stopped-vm"]),
      "error: VMI stopped-vm is not running: start it with `virtctl start stopped-vm`",
    );
  });

  test("a user without RBAC is told it is not allowed, with the server's reason", async () => {
    await createVm(cluster.fixture.client, "guarded-vm", "Halted");
    assert.equal(
      (await cluster.kubectl(["create", "serviceaccount", "nobody", "-n", TEST_NAMESPACE])).code,
      0,
    );
    const token = await cluster.kubectl(["create", "token", "nobody", "-n", TEST_NAMESPACE]);
    assert.equal(token.code, 0, token.stderr);
    const kubeconfig = await cluster.writeKubeconfigWithToken("nobody.kubeconfig", token.stdout.trim());
    const result = await cluster.run(["start", "guarded-vm"], {
      kubeconfigArgs: ["--kubeconfig", kubeconfig],
    });
    assertOneLineError(
      result,
      /^error: not allowed: .*system:serviceaccount:default:nobody.*virtualmachines\/start/,
    );
    assert.equal((await vm("guarded-vm")).spec.runStrategy, "Halted");
  });

  test("KUBECONFIG and the context's namespace are used when no flag is given", async () => {
    const namespace = await cluster.kubectl(["create", "namespace", "team-a"]);
    assert.equal(namespace.code, 0, namespace.stderr);
    const manifest = {
      ...vmManifest("team-vm", "Halted"),
      apiVersion: "kubevirt.io/v1",
      kind: "VirtualMachine",
      metadata: { name: "team-vm", namespace: "team-a" },
    };
    const applied = await cluster.kubectl(["apply", "-f", "-"], JSON.stringify(manifest));
    assert.equal(applied.code, 0, applied.stderr);
    const config = parse(await readFile(cluster.kubeconfigPath, "utf8")) as {
      contexts: { context: Record<string, unknown> }[];
    };
    for (const entry of config.contexts) entry.context.namespace = "team-a";
    const path = join(cluster.fixture.api.dataDir, "team-a.kubeconfig");
    await writeFile(path, stringify(config), { mode: 0o600 });
    const result = await cluster.run(["start", "team-vm"], { kubeconfigArgs: [], env: { KUBECONFIG: path } });
    assert.equal(result.code, 0, result.stderr);
    assert.equal((await vm("team-vm", "team-a")).spec.runStrategy, "Always");
  });

  test("version prints the client's and virt-api's versions", async () => {
    const result = await cluster.run(["version"]);
    assert.equal(result.code, 0, result.stderr);
    const [client, server] = result.stdout.trimEnd().split("\n");
    assert.match(
      client ?? "",
      /^Client Version: version\.Info\{GitVersion:"v\d+\.\d+\.\d+", .*Compiler:"tsc"/,
    );
    assert.match(server ?? "", /^Server Version: version\.Info\{GitVersion:"v\d+\.\d+\.\d+", .*Platform:"/);
  });

  test("an API server that cannot be reached is named, with the error, on one line", async () => {
    const config = parse(await readFile(cluster.kubeconfigPath, "utf8")) as {
      clusters: { cluster: Record<string, unknown> }[];
    };
    for (const entry of config.clusters) entry.cluster.server = "https://127.0.0.1:1";
    const path = join(cluster.fixture.api.dataDir, "unreachable.kubeconfig");
    await writeFile(path, stringify(config), { mode: 0o600 });
    const version = await cluster.run(["version"], { kubeconfigArgs: ["--kubeconfig", path] });
    assert.match(version.stdout, /^Client Version: /);
    assertOneLineError(
      version,
      /^error: cannot reach the API server https:\/\/127\.0\.0\.1:1 \(kubeconfig .*\): .*ECONNREFUSED/,
    );
    const start = await cluster.run(["start", "x"], { kubeconfigArgs: ["--kubeconfig", path] });
    assertOneLineError(start, "cannot reach the API server https://127.0.0.1:1");
  });

  test("create vm prints a manifest that the API server accepts", async () => {
    const userData = Buffer.from("#cloud-config\npassword: fedora\n").toString("base64");
    const created = await cluster.run([
      "create",
      "vm",
      "--name",
      "made-vm",
      "--run-strategy",
      "Manual",
      "--memory",
      "1Gi",
      "--volume-containerdisk",
      "src:localhost/cirros:latest",
      "--cloud-init-user-data",
      userData,
      "--termination-grace-period",
      "5",
    ]);
    assert.equal(created.code, 0, created.stderr);
    const manifest = parse(created.stdout) as VirtualMachine;
    assert.equal(manifest.spec.runStrategy, "Manual");
    assert.equal(manifest.spec.template.spec?.terminationGracePeriodSeconds, 5);
    const applied = await cluster.kubectl(["apply", "--dry-run=server", "-f", "-"], created.stdout);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, /virtualmachine\.kubevirt\.io\/made-vm created \(server dry run\)/);

    const generated = await cluster.run(["create", "vm"]);
    assert.equal(generated.code, 0, generated.stderr);
    assert.match((parse(generated.stdout) as VirtualMachine).metadata?.name ?? "", /^vm-[a-z0-9]{5}$/);
    const appliedGenerated = await cluster.kubectl(
      ["apply", "--dry-run=server", "-f", "-"],
      generated.stdout,
    );
    assert.equal(appliedGenerated.code, 0, appliedGenerated.stderr);
  });

  test("create instancetype and preference apply; a VM of them is admitted", async () => {
    const instancetype = await cluster.run([
      "create",
      "instancetype",
      "--name",
      "made-it",
      "--cpu",
      "1",
      "--memory",
      "1Gi",
    ]);
    assert.equal(instancetype.code, 0, instancetype.stderr);
    const appliedInstancetype = await cluster.kubectl(["apply", "-f", "-"], instancetype.stdout);
    assert.equal(appliedInstancetype.code, 0, appliedInstancetype.stderr);
    const preference = await cluster.run([
      "create",
      "preference",
      "--name",
      "made-pref",
      "--cpu-topology",
      "cores",
    ]);
    assert.equal(preference.code, 0, preference.stderr);
    const appliedPreference = await cluster.kubectl(["apply", "-f", "-"], preference.stdout);
    assert.equal(appliedPreference.code, 0, appliedPreference.stderr);
    const vm = await cluster.run([
      "create",
      "vm",
      "--name",
      "sized-vm",
      "--run-strategy",
      "Halted",
      "--instancetype",
      "made-it",
      "--preference",
      "virtualmachineclusterpreference/made-pref",
      "--volume-containerdisk",
      "src:localhost/cirros:latest",
    ]);
    assert.equal(vm.code, 0, vm.stderr);
    const applied = await cluster.kubectl(["apply", "--dry-run=server", "-f", "-"], vm.stdout);
    assert.equal(applied.code, 0, applied.stderr);
    const conflicting = await cluster.run(["create", "vm", "--instancetype", "made-it", "--memory", "2Gi"]);
    assert.equal(conflicting.code, 1);
    assert.match(conflicting.stderr, /\[instancetype memory\] were all set/);
  });

  // Last: it removes the APIService the tests above use.
  test("version without KubeVirt's API prints the client's version and says in one line that the server has none", async () => {
    const removed = await cluster.kubectl(["delete", "apiservice", "v1.subresources.kubevirt.io"]);
    assert.equal(removed.code, 0, removed.stderr);
    const result = await cluster.run(["version"]);
    assert.match(result.stdout, /^Client Version: version\.Info\{GitVersion:"v/);
    assert.doesNotMatch(result.stdout, /Server Version/);
    assertOneLineError(
      result,
      /^error: no server version from https:\/\/127\.0\.0\.1:\d+: it does not serve subresources\.kubevirt\.io\/v1; is KubeVirt installed\?$/,
    );
  });
});
