// The test guest end to end: built (once; cached afterwards) into the repository's .local/ cache and image
// store, then booted with QEMU directly (TCG, no libvirt): banner, cidata, a typed command, the power button.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { silentBuildLog } from "./build-log.js";
import { createCidataIso } from "./cidata-iso.js";
import { ensureHostCommands } from "./debian-packages.js";
import { createQcow2Overlay } from "./disk-image.js";
import { ensureTestGuest, type TestGuest } from "./ensure-test-guest.js";
import {
  extractCidataFile,
  parseTestGuestStatus,
  TEST_GUEST_BANNER,
  TEST_GUEST_PROMPT,
  TEST_GUEST_SHUTDOWN_MESSAGE,
} from "./guest-console.js";
import { readStoredImage } from "./image-store.js";
import { bootWithQemu, type QemuDisk } from "./qemu-direct-boot.js";
import { CommandError, runCommand } from "./run-command.js";

const BOOT_TIMEOUT_MS = 60_000; // about 5 s alone; generous for a loaded 2-core CI machine
const SHUTDOWN_TIMEOUT_MS = 20_000;

describe("test guest", () => {
  let guest: TestGuest;
  let workDir: string;

  before(async () => {
    guest = await ensureTestGuest();
    workDir = await mkdtemp(join(tmpdir(), "test-guest-"));
    await ensureHostCommands({ "qemu-system-x86_64": "qemu-system-x86" }, silentBuildLog);
  });
  after(() => rm(workDir, { recursive: true, force: true }));

  test("has a kernel, an initramfs and a qcow2 root disk, published as a local image", async () => {
    for (const file of [guest.kernel, guest.initrd, guest.disk]) {
      assert.ok((await stat(file)).size > 1_000_000, `${file} is a real file`);
    }
    assert.match(guest.kernelVersion, /^\d+\.\d+\.\d+-\d+-amd64$/);
    const stored = await readStoredImage(guest.storeDir, guest.image);
    assert.equal(stored?.manifest.digest, guest.digest);
    assert.equal(stored?.manifest.disk?.format, "qcow2");
    assert.equal((await stat(stored?.kernel ?? "")).size, (await stat(guest.kernel)).size);
    assert.equal((await stat(stored?.initrd ?? "")).size, (await stat(guest.initrd)).size);
  });

  test("comes from the cache the second time", async () => {
    const again = await ensureTestGuest();
    assert.equal(again.built, false);
    assert.equal(again.digest, guest.digest);
    assert.equal(again.disk, guest.disk);
  });

  test("boots from its root disk, echoes its cidata, runs commands and powers off on the power button", async () => {
    const userData = '#cloud-config\npassword: "s3cret & <more>"\nruncmd:\n  - echo hi\n';
    const metaData = "instance-id: vm-1234\nlocal-hostname: testvm\n";
    const iso = join(workDir, "cidata.iso");
    const root = join(workDir, "root.qcow2");
    await createCidataIso({ userData, metaData }, iso);
    await createQcow2Overlay(guest.disk, root);
    const disks: QemuDisk[] = [
      { path: root, format: "qcow2", kind: "virtio" },
      { path: iso, format: "raw", kind: "cdrom" },
    ];
    const qemu = await bootWithQemu({
      kernel: guest.kernel,
      initrd: guest.initrd,
      kernelArgs: guest.diskKernelArgs,
      disks,
      workDir,
    });
    try {
      await qemu.waitForOutput(TEST_GUEST_BANNER, BOOT_TIMEOUT_MS);
      const console = qemu.output();
      assert.deepEqual(parseTestGuestStatus(console), { root: "/dev/vda", cidata: "/dev/sr0" });
      assert.equal(extractCidataFile(console, "user-data"), userData);
      assert.equal(extractCidataFile(console, "meta-data"), metaData);

      const promptEnd = await qemu.waitForOutput(TEST_GUEST_PROMPT, 10_000);
      qemu.typeLine("echo answer-$((6*7)) $(hostname) $(cat /proc/mounts | grep -c ' / ext4 ')");
      await qemu.waitForOutput("answer-42 testvm 1", 10_000, promptEnd);

      await qemu.monitor("system_powerdown");
      await qemu.waitForOutput(TEST_GUEST_SHUTDOWN_MESSAGE, SHUTDOWN_TIMEOUT_MS);
      assert.equal(await qemu.waitForExit(SHUTDOWN_TIMEOUT_MS), 0);
    } finally {
      await qemu.kill();
    }
  });

  test("takes root's SSH keys from meta-data public-keys and user-data ssh_authorized_keys; dropbear lets them in", async () => {
    const key = join(workDir, "id_ed25519");
    const other = join(workDir, "id_other");
    for (const path of [key, other]) {
      await runCommand("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "test@host", "-f", path]);
    }
    const publicKey = await readFile(`${key}.pub`, "utf8");
    const otherKey = (await readFile(`${other}.pub`, "utf8")).trim();
    // meta-data as virt-handler writes it for spec.accessCredentials (a block scalar per Secret key).
    const metaData = `instance-id: vm-ssh\nlocal-hostname: sshvm\npublic-keys:\n  "0": |\n    ${publicKey.trim()}\n`;
    const userData = `#cloud-config\nssh_authorized_keys:\n  - "${otherKey}"\n`;
    const iso = join(workDir, "cidata-ssh.iso");
    const root = join(workDir, "root-ssh.qcow2");
    await createCidataIso({ userData, metaData }, iso);
    await createQcow2Overlay(guest.disk, root);
    const port = await freeLoopbackPort();
    const qemu = await bootWithQemu({
      kernel: guest.kernel,
      initrd: guest.initrd,
      kernelArgs: guest.diskKernelArgs,
      disks: [
        { path: root, format: "qcow2", kind: "virtio" },
        { path: iso, format: "raw", kind: "cdrom" },
      ],
      sshHostPort: port,
      workDir,
    });
    try {
      await qemu.waitForOutput("ssh-keys: 2 authorized keys for root", BOOT_TIMEOUT_MS);
      await qemu.waitForOutput(TEST_GUEST_BANNER, BOOT_TIMEOUT_MS);
      assert.equal(await sshUntilAnswered(key, port, "hostname"), "sshvm");
      assert.equal(await sshUntilAnswered(other, port, "id -u"), "0", "the user-data key works too");
      const stranger = join(workDir, "id_stranger");
      await runCommand("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", stranger]);
      await assert.rejects(ssh(stranger, port, "hostname"), CommandError, "an unknown key is refused");
    } finally {
      await qemu.kill();
    }
  });

  test("boots from the initramfs alone and finds cidata on a virtio disk", async () => {
    const iso = join(workDir, "cidata-virtio.iso");
    await createCidataIso({ userData: "plain text user data", metaData: "instance-id: x\n" }, iso);
    const disks: QemuDisk[] = [{ path: iso, format: "raw", kind: "virtio" }];
    const qemu = await bootWithQemu({
      kernel: guest.kernel,
      initrd: guest.initrd,
      kernelArgs: guest.kernelArgs,
      disks,
      workDir,
    });
    try {
      await qemu.waitForOutput(TEST_GUEST_BANNER, BOOT_TIMEOUT_MS);
      assert.deepEqual(parseTestGuestStatus(qemu.output()), { root: "initramfs", cidata: "/dev/vda" });
      assert.equal(extractCidataFile(qemu.output(), "user-data"), "plain text user data");
      await qemu.monitor("system_powerdown");
      assert.equal(await qemu.waitForExit(SHUTDOWN_TIMEOUT_MS), 0);
    } finally {
      await qemu.kill();
    }
  });
});

async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port for the guest's SSH");
  return address.port;
}

async function ssh(identity: string, port: number, command: string): Promise<string> {
  const options = [
    "StrictHostKeyChecking=no",
    "UserKnownHostsFile=/dev/null",
    "BatchMode=yes",
    "ConnectTimeout=10",
  ];
  const args = [...options.flatMap((option) => ["-o", option]), "-i", identity, "-p", String(port)];
  const { stdout } = await runCommand("ssh", [...args, "root@127.0.0.1", command]);
  return stdout.trim();
}

/** The command's output once the guest's SSH server answers (it starts with the banner, DHCP aside). */
async function sshUntilAnswered(identity: string, port: number, command: string): Promise<string> {
  const deadline = Date.now() + BOOT_TIMEOUT_MS;
  for (;;) {
    try {
      return await ssh(identity, port, command);
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`ssh to the guest never answered`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
