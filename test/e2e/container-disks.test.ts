/**
 * containerDisks pulled from registries, end to end on `npm start`'s stack with the real kubectl,
 * Debian's docker-registry, libvirt and QEMU (TCG): images pushed to the dev cluster's registry boot
 * under their own names and behind a mirror; a private repository needs its pull secret (the
 * volume's or the service account's); a missing image shows ErrImagePull, then ImagePullBackOff,
 * and boots once pushed; two VMs share one cached base; hostile images are refused with their
 * reason; a pull cut short by kill -9 of virt-handler leaves no half-written base. Runs as root.
 * The tests run in order and build on each other.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { pino } from "pino";
import { parse } from "yaml";
import { nodeBridgeAddress } from "../../dev-cluster/node-agent/node-agent.js";
import { type RunningRegistry, startRegistry } from "../../dev-cluster/registry/start-registry.js";
import { ensureCloudGuest } from "../cloud-guest/ensure-cloud-guest.js";
import { publishCloudGuest } from "../cloud-guest/publish-to-registry.js";
import { Kubectl } from "../dev-cluster/testing/kubectl.js";
import { ensureTestGuest, type TestGuest } from "../guest/ensure-test-guest.js";
import { TEST_GUEST_BANNER } from "../guest/guest-console.js";
import { publishTestGuest } from "../guest/publish-to-registry.js";
import { buildImage, layerFromEntries, pushImage, type TarEntry } from "../oci-image/index.js";
import { type KubevirtStack, startKubevirtStack } from "./testing/kubevirt-stack.js";
import { componentPids } from "./testing/node-processes.js";
import { pollUntil } from "./testing/poll.js";
import { RunDomains } from "./testing/run-domains.js";
import { RunObjects } from "./testing/run-objects.js";
import { tearDownRun } from "./testing/run-teardown.js";
import { runVirtctl } from "./testing/virtctl-process.js";
import { tinyVm } from "./testing/vm-manifests.js";

const BOOT_MS = 120_000;
const PRIVATE_HOST = "private.registry.invalid";
const MIRRORED_HOST = "registry.example.invalid";

describe("containerDisks from registries", { timeout: 900_000 }, () => {
  const namespace = `images-${process.pid}-${Date.now().toString(36).slice(-4)}`;
  let workDir = "";
  let stack: KubevirtStack | undefined;
  let kubectl: Kubectl;
  let objects: RunObjects;
  let domains: RunDomains | undefined;
  let guest: TestGuest;
  let privateRegistry: RunningRegistry | undefined;

  const requireStack = () => {
    if (!stack) throw new Error("the stack is not up");
    return stack;
  };
  /** examples/vm-tiny.yaml booting from `image` (its containerDisk and its kernelBoot container). */
  const vmFrom = (
    name: string,
    image: string,
    edit?: (volume: Record<string, unknown>) => void,
    runStrategy?: string,
  ) => {
    const vm = tinyVm(requireStack().repoRoot, { name, namespace, ...(runStrategy ? { runStrategy } : {}) });
    const template = vm.spec.template.spec as unknown as {
      domain: { firmware: { kernelBoot: { container: Record<string, unknown> } } };
      volumes: { name: string; containerDisk?: Record<string, unknown> }[];
    };
    template.domain.firmware.kernelBoot.container.image = image;
    const disk = template.volumes.find((volume) => volume.containerDisk)?.containerDisk;
    assert.ok(disk, "examples/vm-tiny.yaml has a containerDisk");
    disk.image = image;
    edit?.(disk);
    if (edit) edit(template.domain.firmware.kernelBoot.container);
    return JSON.stringify(vm);
  };
  const apply = (manifest: string) => kubectl.ok(["apply", "-f", "-"], { input: manifest });
  const waitForBanner = async (name: string) => {
    const console = await requireDomains().attachConsole(requireDomains().domainName(name), {
      timeoutMs: BOOT_MS,
    });
    try {
      await console.transcript.waitFor(TEST_GUEST_BANNER, BOOT_MS);
    } finally {
      console.close();
    }
  };
  const requireDomains = () => {
    if (!domains) throw new Error("no libvirt connection");
    return domains;
  };
  const pushGuest = (repository: string, tag: string, registry = requireStack().registryAddress) =>
    publishTestGuest(guest, { registry, repository, tag });
  const hostsDir = () => join(requireStack().dataDir, "registry-hosts");
  /** A hosts.toml for `host` with the same endpoint as localhost:5000's (the dev cluster's registry). */
  const mirror = async (host: string, endpoint?: string) => {
    const toml =
      endpoint === undefined
        ? await readFile(join(hostsDir(), "localhost:5000", "hosts.toml"), "utf8")
        : `server = "${endpoint}"\n\n[host."${endpoint}"]\n  capabilities = ["pull", "resolve"]\n`;
    await mkdir(join(hostsDir(), host), { recursive: true });
    await writeFile(join(hostsDir(), host, "hosts.toml"), toml);
  };
  const vmiCondition = async (name: string, type: string) =>
    (await objects.vmi(name))?.status?.conditions?.find((condition) => condition.type === type);

  before(async () => {
    assert.equal(process.getuid?.(), 0, "this test needs root: pod network namespaces and qemu:///system");
    workDir = await mkdtemp(join(tmpdir(), "kubevirt-ts-images-"));
    domains = await RunDomains.open(namespace);
    guest = await ensureTestGuest({});
    stack = await startKubevirtStack(workDir, { tag: "images", timeoutMs: 300_000 });
    kubectl = new Kubectl(stack.kubeconfig, join(workDir, "kubectl-cache"));
    objects = new RunObjects(stack.client, namespace);
    await kubectl.ok(["create", "namespace", namespace]);
  });

  after(async () => {
    await privateRegistry?.stop();
    await tearDownRun({ label: "images", namespace, workDir, stack, kubectl, domains });
  });

  test("npm start published the test guest: examples/vm-tiny.yaml's image is in the registry", async () => {
    const response = await fetch(
      `http://${requireStack().registryAddress}/v2/kubevirt-ts/test-guest/manifests/latest`,
      { headers: { accept: "application/vnd.oci.image.manifest.v1+json" } },
    );
    assert.equal(response.status, 200);
  });

  test("KubeVirt's vm-cirros manifest boots unchanged: quay.io is mirrored to the stand-in in the dev registry", async () => {
    const manifest = parse(
      await readFile(join(requireStack().repoRoot, "examples", "vm-cirros-shaped.yaml"), "utf8"),
    );
    assert.equal(
      manifest.spec.template.spec.volumes[0].containerDisk.image,
      "quay.io/kubevirt/cirros-container-disk-demo:latest",
    );
    manifest.metadata.namespace = namespace;
    await apply(JSON.stringify(manifest));
    const target = { repoRoot: requireStack().repoRoot, kubeconfig: requireStack().kubeconfig, namespace };
    const started = await runVirtctl(target, ["start", "vm-cirros"]);
    assert.equal(started.code, 0, started.stderr);
    const console = await requireDomains().attachConsole(requireDomains().domainName("vm-cirros"), {
      timeoutMs: BOOT_MS,
    });
    try {
      // The stand-in echoes the example's user-data on its console.
      await console.transcript.waitFor("printed from cloud-init userdata", BOOT_MS);
    } finally {
      console.close();
    }
    await objects.waitForVmStatus("vm-cirros", "Running", BOOT_MS);
  });

  test("an image pushed under a new name boots, and so does the same image behind a mirror", async () => {
    await pushGuest("e2e/renamed", "v1");
    await apply(vmFrom("renamed", "localhost:5000/e2e/renamed:v1"));
    await waitForBanner("renamed");
    await objects.waitForVmStatus("renamed", "Running", BOOT_MS);

    await mirror(MIRRORED_HOST);
    await apply(vmFrom("mirrored", `${MIRRORED_HOST}/e2e/renamed:v1`));
    await waitForBanner("mirrored");
  });

  test("two VMs of one image share one cached, read-only base", async () => {
    await pushGuest("e2e/shared", "v1");
    await apply(vmFrom("shared-a", "localhost:5000/e2e/shared:v1"));
    await apply(vmFrom("shared-b", "localhost:5000/e2e/shared:v1"));
    await objects.waitForVmiPhase("shared-a", "Running", { timeoutMs: BOOT_MS });
    await objects.waitForVmiPhase("shared-b", "Running", { timeoutMs: BOOT_MS });
    const bases = [];
    for (const name of ["shared-a", "shared-b"]) {
      const uid = (await objects.vmi(name))?.metadata?.uid ?? "";
      bases.push(await stat(join(requireStack().dataDir, "virt-handler", uid, "containerdisk.base")));
    }
    const [a, b] = bases;
    assert.ok(a && b);
    assert.equal(a.ino, b.ino, "both VMs' bases are the same file (one copy on the node)");
    assert.equal(a.mode & 0o222, 0, "the base is read-only");
  });

  test("a missing image: ErrImagePull with the registry's error, then ImagePullBackOff; it boots once pushed", async () => {
    await apply(vmFrom("later", "localhost:5000/e2e/later:v1"));
    const failed = await objects.waitForVmStatus("later", "ErrImagePull", 90_000);
    assert.ok(failed);
    const condition = await vmiCondition("later", "Synchronized");
    assert.match(condition?.message ?? "", /manifest unknown|not found|MANIFEST_UNKNOWN|NAME_UNKNOWN/i);
    await objects.waitForVmStatus("later", "ImagePullBackOff", 60_000);
    await pushGuest("e2e/later", "v1");
    await objects.waitForVmStatus("later", "Running", 120_000);
    assert.equal((await vmiCondition("later", "Synchronized"))?.reason, undefined);
  });

  test("a private repository: refused without its pull secret, boots with the volume's or the service account's", async () => {
    const bridge = nodeBridgeAddress(requireStack().podCidr);
    privateRegistry = await startRegistry({
      dataDir: join(workDir, "private-registry"),
      address: `${bridge}:0`,
      htpasswd: { user: "tenant", password: "s3cret-pass" },
      log: pino({ level: "error" }),
    });
    await publishTestGuest(guest, {
      registry: privateRegistry.address,
      repository: "tenant/guest",
      tag: "v1",
      credentials: { username: "tenant", password: "s3cret-pass" },
    });
    await mirror(PRIVATE_HOST, privateRegistry.url);

    await apply(vmFrom("private-none", `${PRIVATE_HOST}/tenant/guest:v1`));
    await objects.waitForVmStatus("private-none", "ErrImagePull", 90_000);
    assert.match((await vmiCondition("private-none", "Synchronized"))?.message ?? "", /unauthorized|401/i);

    await kubectl.ok([
      ...["-n", namespace, "create", "secret", "docker-registry", "private-pull"],
      ...[`--docker-server=${PRIVATE_HOST}`, "--docker-username=tenant", "--docker-password=s3cret-pass"],
    ]);
    await apply(
      vmFrom("private-secret", `${PRIVATE_HOST}/tenant/guest:v1`, (source) => {
        source.imagePullSecret = "private-pull";
      }),
    );
    await waitForBanner("private-secret");

    await kubectl.ok([
      ...["-n", namespace, "patch", "serviceaccount", "default", "--type=merge", "-p"],
      JSON.stringify({ imagePullSecrets: [{ name: "private-pull" }] }),
    ]);
    await apply(vmFrom("private-account", `${PRIVATE_HOST}/tenant/guest:v1`));
    await waitForBanner("private-account");
  });

  test("hostile images are refused with their reason and never attached", async () => {
    const qcow2WithBacking = join(workDir, "backed.qcow2");
    const { execFileSync } = await import("node:child_process");
    execFileSync("qemu-img", ["create", "-f", "qcow2", "-F", "raw", "-b", "/etc/hostname", qcow2WithBacking]);
    const cases: { name: string; entries: TarEntry[]; reason: RegExp }[] = [
      {
        name: "escape",
        entries: [
          { path: "disk/", type: "dir" },
          { path: "disk/disk.qcow2", type: "file", content: guest.disk },
          { path: "../../../../tmp/kubevirt-ts-escaped", type: "file", content: Buffer.from("x") },
        ],
        reason: /escap|outside|\.\./i,
      },
      {
        name: "symlink",
        entries: [
          { path: "disk/", type: "dir" },
          { path: "disk/disk.img", type: "symlink", linkTarget: "/etc/shadow" },
        ],
        reason: /symlink|symbolic link|not a regular file/i,
      },
      {
        name: "backing",
        entries: [
          { path: "disk/", type: "dir" },
          { path: "disk/disk.qcow2", type: "file", content: qcow2WithBacking },
        ],
        reason: /backing file/i,
      },
      {
        name: "two-disks",
        entries: [
          { path: "disk/", type: "dir" },
          { path: "disk/a.qcow2", type: "file", content: guest.disk },
          { path: "disk/b.qcow2", type: "file", content: guest.disk },
        ],
        reason: /more than one file/i,
      },
    ];
    for (const hostile of cases) {
      const layer = await layerFromEntries(hostile.entries, { compression: "gzip" });
      await pushImage({
        registry: requireStack().registryAddress,
        repository: `e2e/hostile-${hostile.name}`,
        tag: "v1",
        image: buildImage({ layers: [layer] }),
      });
      // Once: the failed VMI stays to be looked at (Always would replace it, with back-off).
      const image = `localhost:5000/e2e/hostile-${hostile.name}:v1`;
      const vm = JSON.parse(vmFrom(`hostile-${hostile.name}`, image, undefined, "Once"));
      // Only the containerDisk is hostile: the kernel comes from the test guest's image.
      vm.spec.template.spec.domain.firmware.kernelBoot.container.image =
        "localhost:5000/kubevirt-ts/test-guest:latest";
      await apply(JSON.stringify(vm));
    }
    for (const hostile of cases) {
      const name = `hostile-${hostile.name}`;
      const vmi = await objects.waitForVmiPhase(name, "Failed", { timeoutMs: 90_000 });
      assert.equal(vmi.status?.reason, "InvalidImage", `${name}: ${JSON.stringify(vmi.status)}`);
      const failure = vmi.status?.conditions?.find((condition) => condition.type === "Failure");
      assert.match(failure?.message ?? "", hostile.reason, name);
      assert.equal(requireDomains().names().includes(requireDomains().domainName(name)), false);
    }
    await assert.rejects(stat("/tmp/kubevirt-ts-escaped"));
  });

  test("kill -9 of virt-handler in the middle of a pull: the restarted handler boots the VM from an intact base", async () => {
    // A big layer, so that the pull takes long enough to be cut short.
    const padding = join(workDir, "padding.bin");
    await writeFile(padding, randomBytes(192 * 1024 * 1024));
    await publishTestGuest(guest, {
      registry: requireStack().registryAddress,
      repository: "e2e/big",
      tag: "v1",
      extraEntries: [{ path: "padding.bin", type: "file", content: padding }],
      compression: "none",
      blobDir: workDir,
    });
    const cache = join(requireStack().dataDir, "image-cache");
    const node = requireStack();
    const [handlerBefore] = componentPids(node, "virt-handler");
    assert.ok(handlerBefore, "virt-handler runs");
    await apply(vmFrom("big", "localhost:5000/e2e/big:v1"));
    // Anything in the cache's work area means a pull is under way.
    await pollUntil(
      "a pull to be under way",
      async () => ((await readdir(join(cache, "tmp")).catch(() => [])).length > 0 ? true : undefined),
      { timeoutMs: 90_000, intervalMs: 20 },
    );
    process.kill(handlerBefore, "SIGKILL");
    await waitForBanner("big");
    const [handlerAfter] = componentPids(node, "virt-handler");
    assert.notEqual(handlerAfter, handlerBefore, "a new virt-handler booted the VM");
    assert.deepEqual(await readdir(join(cache, "tmp")).catch(() => []), [], "no half-written pull is left");
  });

  test("the Debian guest from the registry: cloud-init's user and key, guestosinfo, the agent's addresses", async () => {
    const cloudGuest = await ensureCloudGuest({});
    await publishCloudGuest(cloudGuest, { registry: requireStack().registryAddress });
    const key = join(workDir, "id_ed25519");
    await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", key]);
    const publicKey = (await readFile(`${key}.pub`, "utf8")).trim();
    const vm = parse(await readFile(join(requireStack().repoRoot, "examples", "vm-debian.yaml"), "utf8"));
    vm.metadata = { name: "debian", namespace };
    vm.spec.template.metadata.labels = { "kubevirt.io/vm": "debian" };
    const cloudInit = vm.spec.template.spec.volumes.find(
      (v: { cloudInitNoCloud?: object }) => v.cloudInitNoCloud,
    );
    cloudInit.cloudInitNoCloud.userData = [
      "#cloud-config",
      "users:",
      "  - name: tester",
      "    shell: /bin/bash",
      `    ssh_authorized_keys: ["${publicKey}"]`,
      "runcmd:",
      `  - [ sh, -c, "echo made-by-runcmd > /var/tmp/runcmd" ]`,
      "",
    ].join("\n");
    await apply(JSON.stringify(vm));
    await objects.waitForVmiPhase("debian", "Running", { timeoutMs: 300_000 });
    const agent = await pollUntil(
      "the guest agent to connect",
      async () => ((await vmiCondition("debian", "AgentConnected"))?.status === "True" ? true : undefined),
      { timeoutMs: 300_000, intervalMs: 2_000 },
    );
    assert.ok(agent);
    const target = { repoRoot: requireStack().repoRoot, kubeconfig: requireStack().kubeconfig, namespace };
    const info = await runVirtctl(target, ["guestosinfo", "debian"]);
    assert.equal(info.code, 0, info.stderr);
    const os = JSON.parse(info.stdout).os as { id?: string; prettyName?: string; versionId?: string };
    assert.equal(os.id, "debian");
    assert.equal(os.versionId, "12");
    const vmi = await pollUntil(
      "the VMI to list the agent's addresses",
      async () => {
        const current = await objects.vmi("debian");
        const iface = current?.status?.interfaces?.find((i) =>
          (i as { infoSource?: string }).infoSource?.includes("guest-agent"),
        );
        return iface?.ipAddress ? current : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 2_000 },
    );
    const podIP = vmi.status?.interfaces?.[0]?.ipAddress ?? "";
    assert.match(podIP, /^\d+\.\d+\.\d+\.\d+$/);
    const ssh = (command: string) =>
      run("ssh", [
        ...["-i", key, "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null"],
        ...["-o", "BatchMode=yes", "-o", "ConnectTimeout=5", `tester@${podIP}`, command],
      ]);
    const made = await pollUntil(
      "ssh as cloud-init's user with its key",
      async () => (await ssh("cat /var/tmp/runcmd").catch(() => undefined))?.trim(),
      { timeoutMs: 180_000, intervalMs: 3_000 },
    );
    assert.equal(made, "made-by-runcmd");
  });
});

function run(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: 60_000 }, (error, stdout, stderr) =>
      error
        ? reject(new Error(`${command} failed: ${stderr || error.message}`, { cause: error }))
        : resolve(stdout),
    );
  });
}
