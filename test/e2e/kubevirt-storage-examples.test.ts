/**
 * KubeVirt's own storage examples, end to end on `npm start`'s stack with the real kubectl, libvirt
 * and QEMU (TCG): manifests with every field and value of KubeVirt's examples/vm-alpine-datavolume.yaml
 * and examples/vmi-pvc.yaml (our examples/*-shaped.yaml) apply with kubectl and boot. What they name comes from
 * the dev cluster itself, never from this file: the StorageClass `local`, the registry
 * `registry:5000` (mirrored to the dev registry) and the image
 * `kubevirt/alpine-container-disk-demo:devel` there (start.mjs pushes the stand-in). The claim
 * `disk-alpine` of vmi-pvc is made as examples/dv-disk-alpine.yaml makes it. One guest at a time.
 * Runs as root. The tests run in order and build on each other.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { dataVolumeKind } from "../../api/index.js";
import { persistentVolumeClaimKind, persistentVolumeKind, storageClassKind } from "../../runtime/index.js";
import { Kubectl } from "../dev-cluster/testing/kubectl.js";
import { TEST_GUEST_BANNER } from "../guest/guest-console.js";
import { guestShell } from "./testing/guest-shell.js";
import { type KubevirtStack, startKubevirtStack } from "./testing/kubevirt-stack.js";
import { pollUntil } from "./testing/poll.js";
import { type GuestConsole, RunDomains } from "./testing/run-domains.js";
import { RunObjects } from "./testing/run-objects.js";
import { tearDownRun } from "./testing/run-teardown.js";
import { runVirtctl } from "./testing/virtctl-process.js";

/** SeaBIOS, then SYSLINUX from the claim, then the guest, all under TCG. */
const BOOT_MS = 180_000;
const IMPORT_MS = 180_000;
describe("KubeVirt's DataVolume and PVC examples", { timeout: 900_000 }, () => {
  const namespace = `kvex-${process.pid}-${Date.now().toString(36).slice(-4)}`;
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
  const examplePath = (file: string) => join(requireStack().repoRoot, "examples", file);
  /** `kubectl apply -f FILE` into the run's namespace: the file as it is. */
  const applyFile = (path: string) => kubectl.ok(["apply", "-n", namespace, "-f", path]);
  const virtctl = async (...args: string[]) => {
    const result = await runVirtctl({ ...requireStack(), namespace }, args);
    assert.equal(result.code, 0, `virtctl ${args.join(" ")} failed: ${result.stderr || result.stdout}`);
    return result.stdout;
  };
  const waitForDataVolume = (name: string, phase: string) => {
    let last: unknown;
    return pollUntil(
      `DataVolume ${name} to be ${phase}`,
      async () => {
        const dv = await requireStack()
          .client.resource(dataVolumeKind)
          .get({ namespace, name })
          .catch(() => undefined);
        last = dv?.status;
        return dv?.status?.phase === phase ? dv : undefined;
      },
      { timeoutMs: IMPORT_MS, lastSeen: () => JSON.stringify(last) },
    );
  };
  /** The claim is Bound to a PV of the local-path provisioner in class `local`. */
  const assertOnClassLocal = async (claimName: string) => {
    const claim = await requireStack()
      .client.resource(persistentVolumeClaimKind)
      .get({ namespace, name: claimName });
    assert.equal(claim.status?.phase, "Bound", claimName);
    assert.equal(claim.spec?.storageClassName, "local");
    const volume = await requireStack()
      .client.resource(persistentVolumeKind)
      .get({ name: claim.spec?.volumeName ?? "" });
    assert.equal(volume.spec?.storageClassName, "local");
    assert.equal(
      volume.metadata?.annotations?.["pv.kubernetes.io/provisioned-by"],
      "kubevirt-ts.io/local-path",
    );
  };
  /** Attached as soon as the domain runs (the banner comes seconds later), then waits for the banner. */
  const bootedConsole = async (name: string): Promise<GuestConsole> => {
    const console = await requireDomains().attachConsole(requireDomains().domainName(name), {
      timeoutMs: BOOT_MS,
    });
    try {
      await console.transcript.waitFor(TEST_GUEST_BANNER, BOOT_MS);
      return console;
    } catch (error) {
      console.close();
      throw error;
    }
  };
  /** The guest's memory as its kernel sees it: memory.guest 128Mi, less what the kernel keeps. */
  const assertGuestMemory = async (console: GuestConsole) => {
    const output = await guestShell(console, "grep MemTotal /proc/meminfo");
    const kib = Number(/MemTotal:\s+(\d+) kB/.exec(output)?.[1]);
    assert.ok(kib > 64 * 1024 && kib <= 128 * 1024, `MemTotal ${kib} kB is not that of a 128Mi guest`);
  };

  before(async () => {
    assert.equal(process.getuid?.(), 0, "this test needs root: pod network namespaces and qemu:///system");
    workDir = await mkdtemp(join(tmpdir(), "kubevirt-ts-kvex-"));
    domains = await RunDomains.open(namespace);
    stack = await startKubevirtStack(workDir, { tag: "kvex", timeoutMs: 300_000 });
    kubectl = new Kubectl(stack.kubeconfig, join(workDir, "kubectl-cache"));
    objects = new RunObjects(stack.client, namespace);
    await kubectl.ok(["create", "namespace", namespace]);
  });

  after(async () => {
    await tearDownRun({ label: "kvex", namespace, workDir, stack, kubectl, domains });
  });

  test("the dev cluster has what they name: class local, registry:5000 mirrored, the alpine image pushed", async () => {
    const local = await requireStack().client.resource(storageClassKind).get({ name: "local" });
    assert.equal(local.provisioner, "kubevirt-ts.io/local-path");
    assert.equal(local.volumeBindingMode, "WaitForFirstConsumer");
    assert.equal(local.metadata?.annotations?.["storageclass.kubernetes.io/is-default-class"], undefined);
    const server = async (host: string) => {
      const toml = await readFile(join(requireStack().dataDir, "registry-hosts", host, "hosts.toml"), "utf8");
      return /^server = "(.+)"$/m.exec(toml)?.[1];
    };
    const devRegistry = await server("localhost:5000");
    assert.ok(devRegistry, "localhost:5000 is mirrored to the dev registry");
    assert.equal(await server("registry:5000"), devRegistry, "registry:5000 goes where localhost:5000 goes");
    const manifest = await fetch(
      `http://${requireStack().registryAddress}/v2/kubevirt/alpine-container-disk-demo/manifests/devel`,
      { headers: { accept: "application/vnd.oci.image.manifest.v1+json" } },
    );
    assert.equal(manifest.status, 200, "start.mjs pushed the alpine stand-in");
  });

  test("vm-alpine-datavolume: its DataVolume imports on class local while Halted; virtctl start boots it", async () => {
    await applyFile(examplePath("vm-alpine-datavolume-shaped.yaml"));
    const dv = await waitForDataVolume("alpine-dv", "Succeeded");
    assert.equal(dv.status?.progress, "100.0%");
    assert.equal(dv.metadata?.ownerReferences?.[0]?.name, "vm-alpine-datavolume");
    await assertOnClassLocal("alpine-dv");
    await objects.waitForVmStatus("vm-alpine-datavolume", "Stopped");
    assert.equal(await objects.vmi("vm-alpine-datavolume"), undefined, "Halted: no VMI before virtctl start");

    await virtctl("start", "vm-alpine-datavolume");
    const console = await bootedConsole("vm-alpine-datavolume");
    try {
      await assertGuestMemory(console);
    } finally {
      console.close();
    }
    await objects.waitForVmiPhase("vm-alpine-datavolume", "Running", { timeoutMs: BOOT_MS });
    await objects.waitForVmStatus("vm-alpine-datavolume", "Running", BOOT_MS);

    // One guest at a time on this machine.
    await virtctl("stop", "vm-alpine-datavolume");
    await objects.waitForVmStatus("vm-alpine-datavolume", "Stopped", BOOT_MS);
    await pollUntil(
      "the VM's domain to go",
      () => (requireDomains().names().length === 0 ? true : undefined),
      {
        timeoutMs: 60_000,
      },
    );
  });

  test("vmi-pvc boots from the claim disk-alpine that examples/dv-disk-alpine.yaml imports", async () => {
    await applyFile(examplePath("dv-disk-alpine.yaml"));
    await waitForDataVolume("disk-alpine", "Succeeded");
    await assertOnClassLocal("disk-alpine");

    await applyFile(examplePath("vmi-pvc-shaped.yaml"));
    const console = await bootedConsole("vmi-pvc");
    try {
      await assertGuestMemory(console);
    } finally {
      console.close();
    }
    await objects.waitForVmiPhase("vmi-pvc", "Running", { timeoutMs: BOOT_MS });
    const claimName = await kubectl.ok([
      ...["get", "vmi", "vmi-pvc", "-n", namespace],
      ...["-o", "jsonpath={.spec.volumes[0].persistentVolumeClaim.claimName}"],
    ]);
    assert.equal(claimName, "disk-alpine");
  });
});
