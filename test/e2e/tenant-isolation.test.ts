/**
 * Tenant isolation end to end, on `npm start`'s stack: a namespace user (a service account bound to
 * `edit` in its namespace only) tries, through the real kubectl, every way from a VMI spec to the
 * node that issue 11 names: a hostDisk without the HostDisk gate (at admission, and stored before
 * the gate went off), names that would climb out of the VM's directory or the image, images whose
 * disk is a symlink or a qcow2 naming a host file. Each is refused with a message naming the field,
 * the host files stay as they were (content and mtime), nothing of the VM is left on the node, and
 * the cluster keeps serving. With the gate on, hostDisk boots a VM.
 */
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Kubectl } from "../dev-cluster/testing/kubectl.js";
import { extractCidataFile, TEST_GUEST_BANNER } from "../guest/guest-console.js";
import { httpsGet } from "../harness/https-get.js";
import { type HostileImageKind, publishHostileImage } from "./testing/hostile-images.js";
import { conditionOf, podKind, type VirtualMachineInstance } from "./testing/kinds.js";
import { type KubevirtStack, startKubevirtStack } from "./testing/kubevirt-stack.js";
import { createNamespaceEditor } from "./testing/namespace-editor.js";
import { componentPids } from "./testing/node-processes.js";
import { pollUntil } from "./testing/poll.js";
import { RunDomains } from "./testing/run-domains.js";
import { RunObjects } from "./testing/run-objects.js";
import { tearDownRun } from "./testing/run-teardown.js";
import { readTinyVm } from "./testing/vm-manifests.js";

const BOOT_MS = 90_000;

/** A host file a guest must never see: its bytes and mtime, to prove it untouched. */
interface HostFile {
  readonly path: string;
  readonly digest: string;
  readonly mtimeMs: number;
}

function makeHostFile(path: string): HostFile {
  const content = Buffer.alloc(1 << 20);
  content.write(`node secret ${randomBytes(8).toString("hex")}\n`);
  writeFileSync(path, content, { mode: 0o600 });
  return snapshot(path);
}

function snapshot(path: string): HostFile {
  const digest = createHash("sha256").update(readFileSync(path)).digest("hex");
  return { path, digest, mtimeMs: statSync(path).mtimeMs };
}

function assertUntouched(file: HostFile): void {
  assert.deepEqual(snapshot(file.path), file, `${file.path} changed`);
}

type Volume = Record<string, unknown> & { name: string };
interface VmiManifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string };
  spec: {
    nodeSelector?: Record<string, string>;
    domain: {
      resources: { requests: { memory: string } };
      firmware?: { kernelBoot?: { container?: Record<string, unknown>; kernelArgs?: string } };
      devices: { disks: { name: string; disk?: { bus: string } }[] };
    };
    terminationGracePeriodSeconds?: number;
    volumes: Volume[];
  };
}

describe("tenant isolation: nothing a namespace editor writes reaches the node", { timeout: 600_000 }, () => {
  const suffix = `${process.pid}-${Date.now().toString(36).slice(-4)}`;
  const tenant = `tenant-${suffix}`;
  let workDir = "";
  let stack: KubevirtStack | undefined;
  let admin: Kubectl;
  let editor: Kubectl;
  let objects: RunObjects;
  let domains: RunDomains | undefined;
  let secretFile: HostFile;
  const published: { remove(): Promise<void> }[] = [];

  const requireDomains = () => {
    if (!domains) throw new Error("libvirt is not connected");
    return domains;
  };
  const requireStack = () => {
    if (!stack) throw new Error("the stack is not up");
    return stack;
  };
  const storeDir = () => join(requireStack().repoRoot, ".local", "images");
  /** The test guest booting from its image, as examples/vm-tiny.yaml does, as a VMI of the tenant. */
  const tinyVmi = (name: string): VmiManifest => {
    const template = readTinyVm(requireStack().repoRoot).spec.template.spec as unknown as VmiManifest["spec"];
    return {
      apiVersion: "kubevirt.io/v1",
      kind: "VirtualMachineInstance",
      metadata: { name, namespace: tenant },
      spec: structuredClone(template),
    };
  };
  /** A VMI that only names a disk (no boot): what virt-handler refuses, it refuses before any boot. */
  const diskVmi = (name: string, volume: Volume, disk = { bus: "virtio" }): VmiManifest => ({
    apiVersion: "kubevirt.io/v1",
    kind: "VirtualMachineInstance",
    metadata: { name, namespace: tenant },
    spec: {
      domain: {
        resources: { requests: { memory: "64Mi" } },
        devices: { disks: [{ name: volume.name, disk }] },
      },
      terminationGracePeriodSeconds: 0,
      volumes: [volume],
    },
  });
  const applyAsEditor = (manifest: object) =>
    editor.run(["apply", "-f", "-", "-n", tenant], { input: JSON.stringify(manifest) });
  const setFeatureGates = (gates: string[]) =>
    admin.ok([
      ...["-n", "kubevirt", "patch", "kubevirt", "kubevirt", "--type=merge", "-p"],
      JSON.stringify({ spec: { configuration: { developerConfiguration: { featureGates: gates } } } }),
    ]);
  /** The VMI failed as virt-handler refuses a VMI: phase Failed, a Failure condition, nothing on the node. */
  const refusedByHandler = async (name: string, reason: string, message: RegExp) => {
    const vmi = await objects.waitForVmiPhase(name, "Failed", { timeoutMs: BOOT_MS });
    const failure = conditionOf(vmi.status?.conditions, "Failure");
    assert.equal(failure?.status, "True", JSON.stringify(vmi.status));
    assert.equal(failure?.reason, reason, JSON.stringify(failure));
    assert.match(failure?.message ?? "", message);
    assertNothingOnNode(vmi);
    return vmi;
  };
  const assertNothingOnNode = (vmi: VirtualMachineInstance) => {
    const vmDir = join(requireStack().dataDir, "virt-handler", vmi.metadata?.uid ?? "none");
    assert.equal(existsSync(vmDir), false, `${vmDir} was left on the node`);
    assert.equal(domains?.exists(`${tenant}_${vmi.metadata?.name}`), false, "no domain");
  };

  before(async () => {
    assert.equal(process.getuid?.(), 0, "this test needs root: pod network namespaces and qemu:///system");
    workDir = await mkdtemp(join(tmpdir(), "kubevirt-ts-tenant-"));
    domains = await RunDomains.open(tenant);
    stack = await startKubevirtStack(workDir, { tag: "tnt" });
    admin = new Kubectl(stack.kubeconfig, join(workDir, "admin-cache"));
    objects = new RunObjects(stack.client, tenant);
    const editorConfig = await createNamespaceEditor(admin, {
      namespace: tenant,
      serverKubeconfig: stack.kubeconfig,
      kubeconfig: join(workDir, "editor.kubeconfig"),
    });
    editor = new Kubectl(editorConfig, join(workDir, "editor-cache"));
    await mkdir(join(workDir, "host"));
    secretFile = makeHostFile(join(workDir, "host", "secret.img"));
    await pollUntil("the editor's binding to apply", async () =>
      (await editor.run(["get", "vmi", "-n", tenant])).code === 0 ? true : undefined,
    );
  });

  after(async () => {
    for (const image of published) await image.remove();
    await tearDownRun({
      label: "tenant-isolation",
      namespace: tenant,
      workDir,
      stack,
      kubectl: admin,
      domains,
    });
  });

  test("the editor may write VMIs in its namespace and nothing elsewhere", async () => {
    const can = async (...args: string[]) => (await editor.run(["auth", "can-i", ...args])).stdout.trim();
    assert.equal(await can("create", "virtualmachineinstances.kubevirt.io", "-n", tenant), "yes");
    assert.equal(await can("create", "virtualmachineinstances.kubevirt.io", "-n", "default"), "no");
    assert.equal(await can("patch", "kubevirts.kubevirt.io", "-n", "kubevirt"), "no");
  });

  test("hostDisk without the HostDisk gate: refused at admission for a VMI, a VM and a VMIRS, naming the field", async () => {
    const volume = { name: "host", hostDisk: { path: secretFile.path, type: "Disk" } };
    const vmi = diskVmi("vmi-hostdisk", volume);
    const refused = await applyAsEditor(vmi);
    assert.equal(refused.code, 1, refused.stdout);
    assert.match(refused.stderr, /spec\.volumes\[0\]: HostDisk feature gate is not enabled/);

    const template = { metadata: { labels: { app: "hostdisk" } }, spec: vmi.spec };
    const vm = {
      apiVersion: "kubevirt.io/v1",
      kind: "VirtualMachine",
      metadata: { name: "vm-hostdisk", namespace: tenant },
      spec: { runStrategy: "Always", template },
    };
    const refusedVm = await applyAsEditor(vm);
    assert.match(
      refusedVm.stderr,
      /spec\.template\.spec\.volumes\[0\]: HostDisk feature gate is not enabled/,
    );
    const replicaSet = {
      apiVersion: "kubevirt.io/v1",
      kind: "VirtualMachineInstanceReplicaSet",
      metadata: { name: "rs-hostdisk", namespace: tenant },
      spec: { replicas: 1, selector: { matchLabels: { app: "hostdisk" } }, template },
    };
    const refusedRs = await applyAsEditor(replicaSet);
    assert.match(
      refusedRs.stderr,
      /spec\.template\.spec\.volumes\[0\]: HostDisk feature gate is not enabled/,
    );
    assert.deepEqual(await objects.vmis(), [], "nothing was stored");
    assertUntouched(secretFile);
  });

  test("a hostDisk VMI handed to the node while the gate was on does not start once it is off: Failure, nothing on the host", async () => {
    const node = requireStack();
    const handlers = componentPids(node, "virt-handler");
    assert.equal(handlers.length, 1, "one virt-handler process");
    await setFeatureGates(["HostDisk"]);
    const held = diskVmi("vmi-held", { name: "host", hostDisk: { path: secretFile.path, type: "Disk" } });
    // virt-handler is frozen while virt-controller hands the VMI to the node (Scheduled), then the
    // gate goes off: what the handler finds when it thaws is a stored hostDisk VMI without its gate.
    // A short freeze: its liveness probe allows 30 s.
    for (const pid of handlers) process.kill(pid, "SIGSTOP");
    try {
      await pollUntil("virt-api to admit hostDisk with the gate on", async () =>
        (await applyAsEditor(held)).code === 0 ? true : undefined,
      );
      await objects.waitForVmiPhase("vmi-held", "Scheduled", { timeoutMs: 15_000 });
      await setFeatureGates([]);
      await pollUntil("virt-api to refuse hostDisk again", async () => {
        const result = await applyAsEditor(diskVmi("vmi-probe", held.spec.volumes[0] as Volume));
        return result.code !== 0 && /HostDisk feature gate/.test(result.stderr) ? true : undefined;
      });
    } finally {
      for (const pid of handlers) process.kill(pid, "SIGCONT");
    }
    await refusedByHandler("vmi-held", "FeatureGateNotEnabled", /HostDisk feature gate is not enabled/);
    assertUntouched(secretFile);
  });

  test("with the HostDisk gate on, a hostDisk VM boots and its disk is the file the VMI names", async () => {
    await setFeatureGates(["HostDisk"]);
    const diskPath = join(workDir, "host", "data.img");
    const vmi = tinyVmi("vmi-hostdisk-on");
    vmi.spec.volumes.push({
      name: "data",
      hostDisk: { path: diskPath, type: "DiskOrCreate", capacity: "16Mi" },
    });
    vmi.spec.domain.devices.disks.push({ name: "data", disk: { bus: "virtio" } });
    await pollUntil("virt-api to admit hostDisk with the gate on", async () =>
      (await applyAsEditor(vmi)).code === 0 ? true : undefined,
    );
    await objects.waitForVmiPhase("vmi-hostdisk-on", "Running", { timeoutMs: BOOT_MS });
    assert.equal(statSync(diskPath).size, 16 * 2 ** 20, "DiskOrCreate made the file at its capacity");
    await admin.ok(["delete", "vmi", "vmi-hostdisk-on", "-n", tenant, "--wait=false"]);
    await setFeatureGates([]);
  });

  const hostileImages: { kind: HostileImageKind; message: RegExp }[] = [
    { kind: "qcow2-backing-file", message: /backing file/ },
    { kind: "qcow2-data-file", message: /data file/ },
    { kind: "symlinked-disk", message: /symlink|not a regular file/ },
    { kind: "symlinked-directory", message: /symlink|not a regular file|leaves the image/ },
  ];
  for (const { kind, message } of hostileImages) {
    test(`an image whose disk is a ${kind}: the VMI fails with InvalidImage naming the volume; the host file is untouched`, async () => {
      const hostPath = join(workDir, "host", `${kind}.img`);
      makeHostFile(hostPath); // qemu-img reads a backing file's size when it makes the image
      const image = await publishHostileImage(storeDir(), `tenant-${kind}-${suffix}`, kind, hostPath);
      published.push(image);
      const hostFile = makeHostFile(hostPath); // again: qemu-img zeroes a data file it names
      const name = `vmi-${kind}`;
      await editor.ok(["apply", "-f", "-", "-n", tenant], {
        input: JSON.stringify(diskVmi(name, { name: "rootdisk", containerDisk: { image: image.reference } })),
      });
      await refusedByHandler(name, "InvalidImage", new RegExp(`volume rootdisk.*${message.source}`));
      assertUntouched(hostFile);
    });
  }

  test("paths in a VMI that climb out of the image are refused, naming the field", async () => {
    const guestImage = tinyVmi("unused").spec.volumes.find((volume) => "containerDisk" in volume)
      ?.containerDisk as {
      image: string;
    };
    const attempts: { name: string; edit: (vmi: VmiManifest) => void; field: RegExp }[] = [
      {
        name: "vmi-kernel-path",
        edit: (vmi) => {
          const container = vmi.spec.domain.firmware?.kernelBoot?.container;
          if (container) container.kernelPath = "/boot/../../../../../../etc/shadow";
        },
        field: /kernelPath|kernelBoot/,
      },
      {
        name: "vmi-disk-path",
        edit: (vmi) => {
          const volume = vmi.spec.volumes.find((candidate) => "containerDisk" in candidate);
          if (volume)
            volume.containerDisk = { image: guestImage.image, path: "/disk/../../../../../etc/shadow" };
        },
        field: /containerDisk|volume containerdisk/,
      },
      {
        name: "vmi-image-name",
        edit: (vmi) => {
          const volume = vmi.spec.volumes.find((candidate) => "containerDisk" in candidate);
          if (volume) volume.containerDisk = { image: "localhost/../../../../etc:latest" };
        },
        field: /containerdisk|containerDisk/,
      },
    ];
    for (const attempt of attempts) {
      const vmi = tinyVmi(attempt.name);
      attempt.edit(vmi);
      const result = await applyAsEditor(vmi);
      if (result.code !== 0) {
        assert.match(result.stderr, attempt.field, `${attempt.name}: ${result.stderr}`);
        continue;
      }
      const failed = await objects.waitForVmiPhase(attempt.name, "Failed", { timeoutMs: BOOT_MS });
      const failure = conditionOf(failed.status?.conditions, "Failure");
      assert.match(failure?.message ?? "", attempt.field, `${attempt.name}: ${JSON.stringify(failure)}`);
      assertNothingOnNode(failed);
    }
  });

  test("names that would climb out of the VM's directory or overflow the node's limits are refused at admission, naming the field", async () => {
    const traversal = diskVmi("vmi-traversal", {
      name: "../../../../etc/cron.d/x",
      emptyDisk: { capacity: "1Mi" },
    });
    const refused = await applyAsEditor(traversal);
    assert.notEqual(refused.code, 0, refused.stdout);
    assert.match(refused.stderr, /spec\.volumes\[0\]\.name/);
    const serial = diskVmi("vmi-serial", { name: "scratch", emptyDisk: { capacity: "1Mi" } });
    (serial.spec.domain.devices.disks[0] as Record<string, unknown>).serial = "a,drive=host,file=/etc/shadow";
    const refusedSerial = await applyAsEditor(serial);
    assert.notEqual(refusedSerial.code, 0, refusedSerial.stdout);
    assert.match(refusedSerial.stderr, /spec\.domain\.devices\.disks\[0\]\.serial/);
    // A name the API server takes (253 characters) but whose domain name a node cannot hold.
    const longName = `long-${"n".repeat(240)}`;
    const refusedLong = await applyAsEditor(
      diskVmi(longName, { name: "scratch", emptyDisk: { capacity: "1Mi" } }),
    );
    assert.notEqual(refusedLong.code, 0, refusedLong.stdout);
    assert.match(refusedLong.stderr, /metadata\.name.*domain name/);
    for (const name of ["vmi-traversal", "vmi-serial", longName]) {
      assert.equal(await objects.vmi(name), undefined, `${name} was not stored`);
    }
  });

  test("the editor cannot hand its VMI to a node itself: the reserved labels and a stored spec are KubeVirt's", async () => {
    await editor.ok(["apply", "-f", "-", "-n", tenant], {
      input: JSON.stringify({
        ...diskVmi("vmi-forged", { name: "scratch", emptyDisk: { capacity: "1Mi" } }),
      }),
    });
    // A node name the VMI cannot already carry: once virt-controller hands the VMI to the node, the
    // real one is set, and kubectl would send nothing for a label it already has.
    const label = await editor.run([
      ...["label", "--overwrite", "vmi", "vmi-forged", "-n", tenant],
      `kubevirt.io/nodeName=other-${requireStack().nodeName}`,
    ]);
    assert.notEqual(label.code, 0, label.stdout);
    assert.match(label.stderr, /reserved kubevirt\.io\/ labels on a VMI object is prohibited/);
    const patch = JSON.stringify({ spec: { domain: { resources: { requests: { memory: "96Mi" } } } } });
    const changed = await editor.run([
      "patch",
      "vmi",
      "vmi-forged",
      "-n",
      tenant,
      "--type=merge",
      "-p",
      patch,
    ]);
    assert.notEqual(changed.code, 0, changed.stdout);
    assert.match(changed.stderr, /update of VMI object is restricted/);
    await editor.ok(["delete", "vmi", "vmi-forged", "-n", tenant, "--wait=false"]);
  });

  test("components serve /metrics over TLS only, with their certificates from kubevirt-ca", async () => {
    const caSecret = await admin.json<{ data: Record<string, string> }>([
      "secret",
      "kubevirt-ca",
      "-n",
      "kubevirt",
    ]);
    const ca = Buffer.from(caSecret.data["tls.crt"] ?? "", "base64").toString("utf8");
    const pods = await requireStack().client.resource(podKind).list({ namespace: "kubevirt" });
    for (const component of ["virt-handler", "virt-controller", "virt-api", "virt-operator"]) {
      const pod = pods.items.find(
        (candidate) => candidate.metadata?.labels?.["kubevirt.io"] === component && candidate.status?.podIP,
      );
      assert.ok(pod, `a ${component} pod with an IP`);
      const url = `https://${pod.status?.podIP}:8443/metrics`;
      const scraped = await pollUntil(`${component}'s metrics over TLS`, async () => {
        const answer = await httpsGet(url, { ca, checkHostName: false }).catch(() => undefined);
        return answer?.status === 200 ? answer : undefined;
      });
      assert.match(scraped.body, /^# HELP /m, `${component} serves Prometheus text`);
      const plain = await fetch(`http://${pod.status?.podIP}:8443/metrics`).then(
        (response) => response.status,
        () => "refused",
      );
      assert.notEqual(plain, 200, `${component} serves no metrics over plain HTTP`);
    }
  });

  test("cloud-init from a Secret of the tenant's namespace reaches the guest, through the launcher pod; virt-handler reads no Secret", async () => {
    const canHandler = await admin.run([
      ...["auth", "can-i", "get", "secrets", "-n", tenant],
      "--as=system:serviceaccount:kubevirt:kubevirt-handler",
    ]);
    assert.equal(canHandler.stdout.trim(), "no", "virt-handler may not read the tenant's Secrets");
    const userData = `#cloud-config\n# from a Secret of ${tenant}\nruncmd:\n  - echo "secret user-data"\n`;
    await editor.ok([
      "create",
      "secret",
      "generic",
      "guest-userdata",
      "-n",
      tenant,
      `--from-literal=userdata=${userData}`,
    ]);
    const vmi = tinyVmi("vmi-secret");
    const cloudInit = vmi.spec.volumes.find((volume) => "cloudInitNoCloud" in volume);
    assert.ok(cloudInit, "examples/vm-tiny.yaml has a cloudInitNoCloud volume");
    cloudInit.cloudInitNoCloud = { secretRef: { name: "guest-userdata" } };
    await editor.ok(["apply", "-f", "-", "-n", tenant], { input: JSON.stringify(vmi) });
    const guest = await requireDomains().attachConsole(`${tenant}_vmi-secret`, { timeoutMs: BOOT_MS });
    try {
      await guest.transcript.waitFor(TEST_GUEST_BANNER, BOOT_MS); // the guest echoes its cidata before
      assert.equal(extractCidataFile(guest.transcript.text, "user-data"), userData);
    } finally {
      guest.close();
    }
    await objects.waitForVmiPhase("vmi-secret", "Running", { timeoutMs: BOOT_MS });
  });

  test("after every attempt the cluster keeps serving: virt-handler never restarted, nothing left of the refused VMIs", async () => {
    const handlers = await requireStack().client.resource(podKind).list({
      namespace: "kubevirt",
      labelSelector: "kubevirt.io=virt-handler",
    });
    assert.ok(handlers.items.length > 0, "a virt-handler pod");
    for (const pod of handlers.items) {
      for (const status of pod.status?.containerStatuses ?? []) {
        assert.equal(status.restartCount, 0, pod.metadata?.name);
      }
    }
    assert.deepEqual(
      requireDomains().runningNames(),
      [`${tenant}_vmi-secret`],
      "only the VMI that may run runs",
    );
    assertUntouched(secretFile);
  });
});
