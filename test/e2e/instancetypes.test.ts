/**
 * Instancetypes end to end on `npm start`'s stack (kubectl, libvirt, QEMU under TCG): a VM naming
 * the cluster instancetype u1.small gets its vCPU and memory in the VMI and in the guest; a VM keeps
 * the instancetype it started with after the instancetype is edited, and takes the new one only once
 * its revision reference is cleared and it restarts; kubectl apply of a VM that sets what its
 * instancetype sets, or of one whose instancetype asks for what kubevirt-ts cannot honour yet, is
 * refused with the field path; virtctl expand prints a VM expanded.
 * Runs as root. The tests run in order and build on each other.
 */
import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { stringify } from "yaml";
import { vmiKind, vmKind } from "../../api/index.js";
import { Kubectl } from "../dev-cluster/testing/kubectl.js";
import { TEST_GUEST_BANNER } from "../guest/guest-console.js";
import { guestShell } from "./testing/guest-shell.js";
import { type KubevirtStack, startKubevirtStack } from "./testing/kubevirt-stack.js";
import { pollUntil } from "./testing/poll.js";
import { type GuestConsole, RunDomains } from "./testing/run-domains.js";
import { RunObjects } from "./testing/run-objects.js";
import { tearDownRun } from "./testing/run-teardown.js";
import { runVirtctl } from "./testing/virtctl-process.js";
import { tinyVm } from "./testing/vm-manifests.js";

const BOOT_MS = 120_000;
const KIB_PER_GIB = 1024 * 1024;

/** u1.small as KubeVirt's common-instancetypes define it: 1 vCPU, 2Gi. */
function clusterInstancetype(name: string, guest: number, memory: string) {
  return {
    apiVersion: "instancetype.kubevirt.io/v1beta1",
    kind: "VirtualMachineClusterInstancetype",
    metadata: { name },
    spec: { cpu: { guest }, memory: { guest: memory } },
  };
}

describe("instancetypes", { timeout: 900_000 }, () => {
  const namespace = `itypes-${process.pid}-${Date.now().toString(36).slice(-4)}`;
  const resizable = `e2e-resizable-${process.pid}`;
  let workDir = "";
  let stack: KubevirtStack | undefined;
  let kubectl: Kubectl;
  let objects: RunObjects;
  let domains: RunDomains | undefined;

  const requireStack = () => {
    if (!stack) throw new Error("the stack is not up");
    return stack;
  };
  const requireDomains = () => {
    if (!domains) throw new Error("no libvirt connection");
    return domains;
  };
  const apply = (manifest: object) => kubectl.ok(["apply", "-f", "-"], { input: stringify(manifest) });
  /** examples/vm-tiny.yaml without its own CPU and memory, sized by `instancetype`. */
  const sizedVm = (name: string, instancetype: string) => {
    const vm = tinyVm(requireStack().repoRoot, { name, namespace }) as unknown as {
      spec: { instancetype?: object; template: { spec: { domain: Record<string, unknown> } } };
    };
    delete vm.spec.template.spec.domain.cpu;
    delete vm.spec.template.spec.domain.resources;
    vm.spec.instancetype = { name: instancetype };
    return vm;
  };
  const readVmi = (name: string) => requireStack().client.resource(vmiKind).get({ namespace, name });
  const readVm = (name: string) => requireStack().client.resource(vmKind).get({ namespace, name });
  const virtctl = async (...args: string[]) => {
    const result = await runVirtctl({ ...requireStack(), namespace }, args);
    assert.equal(result.code, 0, `virtctl ${args.join(" ")} failed: ${result.stderr || result.stdout}`);
    return result.stdout;
  };
  const guestConsole = async (vmName: string, notId?: number): Promise<GuestConsole> => {
    const console = await requireDomains().attachConsole(requireDomains().domainName(vmName), {
      timeoutMs: BOOT_MS,
      ...(notId === undefined ? {} : { notId }),
    });
    await console.transcript.waitFor(TEST_GUEST_BANNER, BOOT_MS);
    return console;
  };
  /** What the guest sees: its CPU count and MemTotal in KiB. */
  const guestSize = async (vmName: string, notId?: number): Promise<{ cpus: number; memoryKib: number }> => {
    const console = await guestConsole(vmName, notId);
    try {
      const cpus = Number(
        /\b(\d+)\s*$/m.exec((await guestShell(console, "grep -c ^processor /proc/cpuinfo")).trim())?.[1],
      );
      const memory = /MemTotal:\s+(\d+) kB/.exec(await guestShell(console, "grep MemTotal /proc/meminfo"));
      return { cpus, memoryKib: Number(memory?.[1]) };
    } finally {
      console.close();
    }
  };
  const domainId = (vmName: string) =>
    requireDomains().domainId(requireDomains().domainName(vmName)) ?? undefined;
  const restart = async (vmName: string) => {
    const before = (await readVmi(vmName)).metadata?.uid;
    const oldId = domainId(vmName);
    await virtctl("restart", vmName);
    await objects.waitForVmiPhase(vmName, "Running", {
      timeoutMs: BOOT_MS,
      ...(before ? { notUid: before } : {}),
    });
    return oldId;
  };

  before(async () => {
    assert.equal(process.getuid?.(), 0, "this test needs root: pod network namespaces and qemu:///system");
    workDir = await mkdtemp(join(tmpdir(), "kubevirt-ts-itypes-"));
    domains = await RunDomains.open(namespace);
    stack = await startKubevirtStack(workDir, { tag: "itypes", timeoutMs: 300_000 });
    kubectl = new Kubectl(stack.kubeconfig, join(workDir, "kubectl-cache"));
    objects = new RunObjects(stack.client, namespace);
    await kubectl.ok(["create", "namespace", namespace]);
  });

  after(async () => {
    if (stack?.running() && kubectl) {
      await kubectl.run(["delete", "vmcf", resizable, "--ignore-not-found"], { timeoutMs: 20_000 });
    }
    await tearDownRun({ label: "itypes", namespace, workDir, stack, kubectl, domains });
  });

  test("the four kinds are served with KubeVirt's names", async () => {
    const resources = await kubectl.ok(["api-resources", "--api-group=instancetype.kubevirt.io"]);
    for (const line of [
      /virtualmachineclusterinstancetypes\s+vmclusterinstancetype,vmclusterinstancetypes,vmcf,vmcfs\s+instancetype\.kubevirt\.io\/v1beta1\s+false\s+VirtualMachineClusterInstancetype/,
      /virtualmachineclusterpreferences\s+vmcp,vmcps\s+instancetype\.kubevirt\.io\/v1beta1\s+false\s+VirtualMachineClusterPreference/,
      /virtualmachineinstancetypes\s+vminstancetype,vminstancetypes,vmf,vmfs\s+instancetype\.kubevirt\.io\/v1beta1\s+true\s+VirtualMachineInstancetype/,
      /virtualmachinepreferences\s+vmpref,vmprefs,vmp,vmps\s+instancetype\.kubevirt\.io\/v1beta1\s+true\s+VirtualMachinePreference/,
    ]) {
      assert.match(resources, line);
    }
  });

  test("a VM with instancetype u1.small gets 1 vCPU and 2Gi, in its VMI and in the guest", async () => {
    // virt-operator installs KubeVirt's common instancetypes once the rest of KubeVirt is available.
    const installed = await pollUntil(
      "virt-operator to install u1.small",
      async () => {
        const result = await kubectl.run(["get", "vmcf", "u1.small", "-o", "json"]);
        return result.code === 0
          ? (JSON.parse(result.stdout) as { metadata: { labels?: Record<string, string> } })
          : undefined;
      },
      { timeoutMs: 120_000 },
    );
    assert.equal(installed.metadata.labels?.["instancetype.kubevirt.io/vendor"], "kubevirt.io");
    await apply(sizedVm("vm-small", "u1.small"));
    await objects.waitForVmiPhase("vm-small", "Running", { timeoutMs: BOOT_MS });
    const vmi = await readVmi("vm-small");
    const cpu = vmi.spec.domain.cpu;
    assert.deepEqual([cpu?.sockets, cpu?.cores, cpu?.threads], [1, 1, 1]);
    assert.equal(vmi.spec.domain.memory?.guest, "2Gi");
    assert.equal(vmi.metadata?.annotations?.["kubevirt.io/cluster-instancetype-name"], "u1.small");
    const vm = await readVm("vm-small");
    assert.match(
      vm.status?.instancetypeRef?.controllerRevisionRef?.name ?? "",
      /^vm-small-u1\.small-v1beta1-/,
    );
    const revisions = await kubectl.ok(["get", "controllerrevisions", "-n", namespace]);
    assert.match(revisions, /vm-small-u1\.small-v1beta1-/);
    const size = await guestSize("vm-small");
    assert.equal(size.cpus, 1);
    assert.ok(
      size.memoryKib > 1.8 * KIB_PER_GIB && size.memoryKib <= 2 * KIB_PER_GIB,
      `MemTotal ${size.memoryKib} kB`,
    );
  });

  test("an edited instancetype changes a VM only after its revision ref is cleared and it restarts", async () => {
    await apply(clusterInstancetype(resizable, 1, "256Mi"));
    await apply(sizedVm("vm-resized", resizable));
    await objects.waitForVmiPhase("vm-resized", "Running", { timeoutMs: BOOT_MS });
    const first = await readVm("vm-resized");
    const firstRevision = first.status?.instancetypeRef?.controllerRevisionRef?.name ?? "";
    assert.ok(firstRevision !== "", "the VM records its revision");

    await apply(clusterInstancetype(resizable, 2, "512Mi"));
    let oldId = await restart("vm-resized");
    const kept = await readVmi("vm-resized");
    assert.equal(kept.spec.domain.cpu?.sockets, 1, "the stored revision still sizes the VM");
    assert.equal(kept.spec.domain.memory?.guest, "256Mi");
    assert.equal(
      (await readVm("vm-resized")).status?.instancetypeRef?.controllerRevisionRef?.name,
      firstRevision,
    );
    let size = await guestSize("vm-resized", oldId);
    assert.equal(size.cpus, 1);

    await kubectl.ok([
      "patch",
      "vm",
      "vm-resized",
      "-n",
      namespace,
      "--subresource=status",
      "--type=json",
      "-p",
      JSON.stringify([{ op: "remove", path: "/status/instancetypeRef/controllerRevisionRef" }]),
    ]);
    await pollUntil(
      "a new revision",
      async () => {
        const name = (await readVm("vm-resized")).status?.instancetypeRef?.controllerRevisionRef?.name;
        return name && name !== firstRevision ? name : undefined;
      },
      { timeoutMs: 30_000 },
    );
    oldId = await restart("vm-resized");
    const resized = await readVmi("vm-resized");
    assert.equal(resized.spec.domain.cpu?.sockets, 2);
    assert.equal(resized.spec.domain.memory?.guest, "512Mi");
    size = await guestSize("vm-resized", oldId);
    assert.equal(size.cpus, 2);
    assert.ok(
      size.memoryKib > 0.4 * KIB_PER_GIB && size.memoryKib <= 0.5 * KIB_PER_GIB,
      `MemTotal ${size.memoryKib} kB`,
    );
  });

  test("kubectl apply refuses a VM that sets what its instancetype sets, with the field path", async () => {
    const vm = sizedVm("vm-conflict", "u1.small");
    vm.spec.template.spec.domain.memory = { guest: "1Gi" };
    const result = await kubectl.run(["apply", "-f", "-"], { input: stringify(vm) });
    assert.notEqual(result.code, 0);
    assert.match(
      result.stderr,
      // kubectl prints a 422's causes as `field: message`.
      /spec\.template\.spec\.domain\.memory\.guest: VM field\(s\) spec\.template\.spec\.domain\.memory\.guest conflicts with selected instance type/,
    );
  });

  test("virtctl create vm --instancetype u1.small --preference cirros prints a VM that applies and boots", async () => {
    await kubectl.ok(["delete", "vm", "vm-small", "-n", namespace, "--wait=true", "--timeout=120s"]);
    const manifest = await virtctl(
      "create",
      "vm",
      "--name=vm-created",
      "--instancetype=u1.small",
      "--preference=cirros",
      "--volume-containerdisk=src:quay.io/kubevirt/cirros-container-disk-demo:latest",
    );
    await kubectl.ok(["apply", "-n", namespace, "-f", "-"], { input: manifest });
    await objects.waitForVmiPhase("vm-created", "Running", { timeoutMs: BOOT_MS });
    const vmi = await readVmi("vm-created");
    assert.equal(vmi.spec.domain.memory?.guest, "2Gi");
    assert.equal(vmi.metadata?.annotations?.["kubevirt.io/cluster-preference-name"], "cirros");
    // The cirros stand-in boots from its own disk: its banner on the console is the boot.
    (await guestConsole("vm-created")).close();
    await kubectl.ok(["delete", "vm", "vm-created", "-n", namespace, "--wait=true", "--timeout=120s"]);
  });

  test("virtctl create vm on a labelled claim: the instancetype and preference are inferred at admission", async () => {
    await apply({
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: {
        name: "labelled-root",
        namespace,
        labels: {
          "instancetype.kubevirt.io/default-instancetype": "u1.small",
          "instancetype.kubevirt.io/default-preference": "cirros",
        },
      },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "64Mi" } } },
    });
    // Implicit inference (no --instancetype, no --memory): virtctl asks to Ignore a failure and
    // keeps 512Mi to fall back on; the inferred instancetype replaces it.
    const manifest = await virtctl(
      "create",
      "vm",
      "--name=vm-inferred",
      "--run-strategy=Halted",
      "--volume-pvc=src:labelled-root",
    );
    await kubectl.ok(["apply", "-n", namespace, "-f", "-"], { input: manifest });
    const vm = await readVm("vm-inferred");
    assert.deepEqual(vm.spec.instancetype, { name: "u1.small", kind: "VirtualMachineClusterInstancetype" });
    assert.deepEqual(vm.spec.preference, { name: "cirros", kind: "VirtualMachineClusterPreference" });
    assert.equal(vm.spec.template.spec?.domain.memory, undefined);
    await kubectl.ok(["delete", "vm", "vm-inferred", "-n", namespace, "--wait=true", "--timeout=60s"]);
  });

  test("an instancetype asking for what kubevirt-ts cannot give yet applies; a VM of it, or of the operator's cx1, is refused saying why", async () => {
    const dedicated = clusterInstancetype(`e2e-dedicated-${process.pid}`, 2, "1Gi");
    Object.assign(dedicated.spec.cpu, { dedicatedCPUPlacement: true });
    await apply(dedicated);
    try {
      for (const [instancetype, reason] of [
        [
          dedicated.metadata.name,
          /spec\.cpu\.dedicatedCPUPlacement: dedicated CPU placement is not supported yet/,
        ],
        ["cx1.medium", /cx1\.medium: spec\.memory\.hugepages: hugepages is not supported yet/],
      ] as const) {
        const result = await kubectl.run(["apply", "-f", "-"], {
          input: stringify(sizedVm("vm-unusable", instancetype)),
        });
        assert.notEqual(result.code, 0, `a VM of ${instancetype} was admitted`);
        assert.match(result.stderr, reason);
        assert.match(result.stderr, /spec\.instancetype: /, "the cause names the VM's field");
      }
    } finally {
      await kubectl.run(["delete", "vmcf", dedicated.metadata.name, "--ignore-not-found"], {
        timeoutMs: 20_000,
      });
    }
  });

  test("virtctl expand --vm prints the VM with its instancetype and preference applied", async () => {
    const vm = sizedVm("vm-expand", "u1.small") as ReturnType<typeof sizedVm> & {
      spec: { runStrategy?: string; preference?: object };
    };
    vm.spec.runStrategy = "Halted";
    vm.spec.preference = { name: "cirros" };
    await apply(vm);
    const expanded = JSON.parse(await virtctl("expand", "--vm", "vm-expand", "-o", "json")) as {
      spec: {
        instancetype?: unknown;
        preference?: unknown;
        template: { spec: { domain: { memory?: { guest?: string }; cpu?: { sockets?: number } } } };
      };
    };
    assert.equal(expanded.spec.instancetype, undefined);
    assert.equal(expanded.spec.preference, undefined);
    assert.equal(expanded.spec.template.spec.domain.memory?.guest, "2Gi");
    assert.equal(expanded.spec.template.spec.domain.cpu?.sockets, 1);
    assert.equal(
      (await readVm("vm-expand")).spec.instancetype?.name,
      "u1.small",
      "the stored VM keeps its matcher",
    );
  });
});
