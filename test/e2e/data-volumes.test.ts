/**
 * DataVolumes, end to end on `npm start`'s stack with the real kubectl, libvirt and QEMU (TCG): a VM
 * whose dataVolumeTemplate imports the test guest from the dev cluster's registry shows Provisioning,
 * then boots from its claim; what the guest writes to its root file system survives `virtctl
 * restart`; an `http` import from a server on the node boots too; a `pvc` clone waits while its
 * source is in use, then boots; an import that fails shows DataVolumeError; deleting a VM deletes
 * its DataVolumes and their claims. Runs as root. The tests run in order and build on each other.
 */
import assert from "node:assert/strict";
import { createReadStream } from "node:fs";
import { mkdtemp, stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { stringify } from "yaml";
import { dataVolumeKind } from "../../api/index.js";
import { nodeBridgeAddress } from "../../dev-cluster/node-agent/node-agent.js";
import { persistentVolumeClaimKind } from "../../runtime/index.js";
import { Kubectl } from "../dev-cluster/testing/kubectl.js";
import { ensureTestGuest, type TestGuest } from "../guest/ensure-test-guest.js";
import { TEST_GUEST_BANNER } from "../guest/guest-console.js";
import { publishTestGuest } from "../guest/publish-to-registry.js";
import { guestShell } from "./testing/guest-shell.js";
import { type KubevirtStack, startKubevirtStack } from "./testing/kubevirt-stack.js";
import { pollUntil } from "./testing/poll.js";
import { type GuestConsole, RunDomains } from "./testing/run-domains.js";
import { RunObjects } from "./testing/run-objects.js";
import { tearDownRun } from "./testing/run-teardown.js";
import { runVirtctl } from "./testing/virtctl-process.js";
import { tinyVm } from "./testing/vm-manifests.js";

const BOOT_MS = 120_000;
const IMPORT_MS = 180_000;
const TEST_GUEST_IMAGE = "localhost:5000/kubevirt-ts/test-guest:latest";

describe("DataVolumes", { timeout: 1_200_000 }, () => {
  const namespace = `dvs-${process.pid}-${Date.now().toString(36).slice(-4)}`;
  const marker = `kvts-${Math.random().toString(36).slice(2, 10)}`;
  let workDir = "";
  let stack: KubevirtStack | undefined;
  let kubectl: Kubectl;
  let objects: RunObjects;
  let domains: RunDomains | undefined;
  let guest: TestGuest;
  let server: Server | undefined;
  let serverUrl = "";

  const requireStack = () => {
    if (!stack) throw new Error("the stack is not up");
    return stack;
  };
  const requireDomains = () => {
    if (!domains) throw new Error("no libvirt connection");
    return domains;
  };
  const apply = (manifest: object) => kubectl.ok(["apply", "-f", "-"], { input: stringify(manifest) });
  /** examples/vm-tiny.yaml with its root disk on a DataVolume made from `source`. */
  const vmOnDataVolume = (name: string, source: object) => {
    const vm = tinyVm(requireStack().repoRoot, { name, namespace });
    const spec = vm.spec as unknown as { dataVolumeTemplates?: object[] };
    spec.dataVolumeTemplates = [
      {
        metadata: { name: `${name}-root` },
        spec: { source, storage: { resources: { requests: { storage: "64Mi" } } } },
      },
    ];
    const template = vm.spec.template.spec as unknown as { volumes: Record<string, unknown>[] };
    const root = template.volumes.find((volume) => volume.containerDisk);
    assert.ok(root, "examples/vm-tiny.yaml has a containerDisk");
    delete root.containerDisk;
    root.dataVolume = { name: `${name}-root` };
    return vm;
  };
  const dataVolume = (name: string) =>
    requireStack()
      .client.resource(dataVolumeKind)
      .get({ namespace, name })
      .catch(() => undefined);
  const claim = (name: string) =>
    requireStack()
      .client.resource(persistentVolumeClaimKind)
      .get({ namespace, name })
      .catch(() => undefined);
  const waitForDataVolume = (name: string, phase: string, timeoutMs = IMPORT_MS) => {
    let last: unknown;
    return pollUntil(
      `DataVolume ${name} to be ${phase}`,
      async () => {
        const dv = await dataVolume(name);
        last = dv?.status;
        return dv?.status?.phase === phase ? dv : undefined;
      },
      { timeoutMs, lastSeen: () => JSON.stringify(last) },
    );
  };
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
  const domainId = (vmName: string) =>
    requireDomains().domainId(requireDomains().domainName(vmName)) ?? undefined;

  before(async () => {
    assert.equal(process.getuid?.(), 0, "this test needs root: pod network namespaces and qemu:///system");
    workDir = await mkdtemp(join(tmpdir(), "kubevirt-ts-dvs-"));
    domains = await RunDomains.open(namespace);
    guest = await ensureTestGuest({});
    stack = await startKubevirtStack(workDir, { tag: "dvs", timeoutMs: 300_000 });
    kubectl = new Kubectl(stack.kubeconfig, join(workDir, "kubectl-cache"));
    objects = new RunObjects(stack.client, namespace);
    await kubectl.ok(["create", "namespace", namespace]);
    // The image this file imports, pushed here rather than trusted to be in the stack's registry.
    await publishTestGuest(guest, {
      registry: stack.registryAddress,
      repository: "kubevirt-ts/test-guest",
      tag: "latest",
    });
    // An http server on the node bridge, which pods reach (nothing leaves the machine): the guest's qcow2.
    server = createServer((request, response) => {
      if (request.url !== "/test-guest.qcow2") {
        response.writeHead(404).end("not found");
        return;
      }
      void stat(guest.disk).then((info) => {
        response.writeHead(200, { "content-length": info.size, "content-type": "application/octet-stream" });
        createReadStream(guest.disk).pipe(response);
      });
    });
    const host = nodeBridgeAddress(stack.podCidr);
    await new Promise<void>((resolve) => server?.listen(0, host, resolve));
    serverUrl = `http://${host}:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server?.close();
    await tearDownRun({ label: "dvs", namespace, workDir, stack, kubectl, domains });
  });

  test("a VM with a dataVolumeTemplate from the registry provisions, then boots from its claim", async () => {
    await apply(vmOnDataVolume("vm-reg", { registry: { url: `docker://${TEST_GUEST_IMAGE}` } }));
    await objects.waitForVmStatus("vm-reg", "Provisioning", 60_000);
    const dv = await waitForDataVolume("vm-reg-root", "Succeeded");
    assert.equal(dv.status?.progress, "100.0%");
    assert.equal(dv.metadata?.ownerReferences?.[0]?.kind, "VirtualMachine", "the VM owns its DataVolume");
    const bound = await claim("vm-reg-root");
    assert.equal(bound?.status?.phase, "Bound");
    assert.equal(bound?.metadata?.ownerReferences?.[0]?.kind, "DataVolume", "the DataVolume owns its claim");
    const table = await kubectl.ok(["get", "dv", "vm-reg-root", "-n", namespace]);
    assert.match(table, /vm-reg-root\s+Succeeded\s+100\.0%/);
    await objects.waitForVmiPhase("vm-reg", "Running", { timeoutMs: BOOT_MS });
    const console = await guestConsole("vm-reg");
    try {
      const [head, tail] = [marker.slice(0, 5), marker.slice(5)];
      await guestShell(console, `printf '%s%s' '${head}' '${tail}' > /kvts-marker; sync`);
    } finally {
      console.close();
    }
  });

  test("what the guest wrote to its root file system survives virtctl restart", async () => {
    const before = (await objects.vmi("vm-reg"))?.metadata?.uid;
    const oldId = domainId("vm-reg");
    await virtctl("restart", "vm-reg");
    await objects.waitForVmiPhase("vm-reg", "Running", {
      timeoutMs: BOOT_MS,
      ...(before ? { notUid: before } : {}),
    });
    const console = await guestConsole("vm-reg", oldId);
    try {
      assert.match(await guestShell(console, "cat /kvts-marker"), new RegExp(marker));
    } finally {
      console.close();
    }
  });

  test("a pvc clone waits while a VM uses its source, then copies it once the VM is stopped", async () => {
    await apply({
      apiVersion: "cdi.kubevirt.io/v1beta1",
      kind: "DataVolume",
      metadata: { name: "cloned", namespace },
      spec: {
        source: { pvc: { namespace, name: "vm-reg-root" } },
        storage: { resources: { requests: { storage: "64Mi" } } },
      },
    });
    await pollUntil(
      "the clone to wait for its source",
      async () => {
        const ready = (await dataVolume("cloned"))?.status?.conditions?.find(
          (condition) => condition.type === "Ready",
        );
        return ready?.reason === "CloneSourceInUse" ? ready : undefined;
      },
      { timeoutMs: 60_000 },
    );
    await virtctl("stop", "vm-reg");
    await objects.waitForVmStatus("vm-reg", "Stopped", BOOT_MS);
    await waitForDataVolume("cloned", "Succeeded");
    const vm = tinyVm(requireStack().repoRoot, { name: "vm-clone", namespace });
    const template = vm.spec.template.spec as unknown as { volumes: Record<string, unknown>[] };
    const root = template.volumes.find((volume) => volume.containerDisk);
    assert.ok(root);
    delete root.containerDisk;
    root.dataVolume = { name: "cloned" };
    await apply(vm);
    await objects.waitForVmiPhase("vm-clone", "Running", { timeoutMs: BOOT_MS });
    const console = await guestConsole("vm-clone");
    try {
      assert.match(
        await guestShell(console, "cat /kvts-marker"),
        new RegExp(marker),
        "the clone has the source's data",
      );
    } finally {
      console.close();
    }
  });

  test("an http import from a server on the node boots too", async () => {
    await apply(vmOnDataVolume("vm-http", { http: { url: `${serverUrl}/test-guest.qcow2` } }));
    await waitForDataVolume("vm-http-root", "Succeeded");
    await objects.waitForVmiPhase("vm-http", "Running", { timeoutMs: BOOT_MS });
    const console = await guestConsole("vm-http");
    console.close();
  });

  test("an import that fails shows DataVolumeError on the VM, with the importer's reason", async () => {
    await apply(vmOnDataVolume("vm-broken", { http: { url: `${serverUrl}/missing.qcow2` } }));
    const vm = await objects.waitForVmStatus("vm-broken", "DataVolumeError", IMPORT_MS);
    assert.equal(vm.status?.printableStatus, "DataVolumeError");
    const running = (await dataVolume("vm-broken-root"))?.status?.conditions?.find(
      (condition) => condition.type === "Running",
    );
    assert.equal(running?.reason, "Error");
    assert.match(running?.message ?? "", /404/);
    assert.equal((await objects.vmi("vm-broken")) === undefined, true, "no VMI for a VM whose disk failed");
  });

  test("deleting a VM deletes its DataVolumes and their claims", async () => {
    await kubectl.ok([
      "delete",
      "vm",
      "vm-broken",
      "vm-http",
      "-n",
      namespace,
      "--wait=true",
      "--timeout=90s",
    ]);
    await pollUntil(
      "the VMs' DataVolumes and claims to go",
      async () => {
        const left = await Promise.all(
          ["vm-broken-root", "vm-http-root"].flatMap((name) => [dataVolume(name), claim(name)]),
        );
        return left.every((object) => object === undefined) ? true : undefined;
      },
      { timeoutMs: 90_000 },
    );
    assert.ok(await dataVolume("cloned"), "a DataVolume no VM owns stays");
  });
});
