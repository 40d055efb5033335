// The Debian 12 cloud guest end to end: built (or taken from the cache), then booted from its own disk
// (SeaBIOS → extlinux → kernel, no -kernel) with QEMU under TCG, once with a NoCloud ISO and once with a
// ConfigDrive ISO. Each boot must create the user from the user-data, accept its SSH key, run its
// runcmd, and have qemu-guest-agent answering on the virtio-serial port.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createCidataIso } from "../guest/cidata-iso.js";
import { createQcow2Overlay } from "../guest/disk-image.js";
import { runCommand } from "../guest/run-command.js";
import { createConfigDriveIso } from "./config-drive.js";
import { type CloudGuest, ensureCloudGuest } from "./ensure-cloud-guest.js";
import { guestAgentCommand } from "./guest-agent-client.js";
import { bootDiskWithQemu } from "./qemu-disk-boot.js";
import { type SshTarget, sshRun, waitForSsh } from "./ssh-client.js";

const BOOT_TO_SSH_MS = 180_000;
const CLOUD_INIT_DONE_MS = 120_000;
const USER = "kvts";

async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port from the loopback listener");
  return address.port;
}

function userData(publicKey: string, marker: string): string {
  return [
    "#cloud-config",
    "users:",
    `  - name: ${USER}`,
    "    shell: /bin/bash",
    "    sudo: ALL=(ALL) NOPASSWD:ALL",
    "    ssh_authorized_keys:",
    `      - ${publicKey.trim()}`,
    "runcmd:",
    `  - [ sh, -c, "echo ${marker} > /var/tmp/runcmd-marker" ]`,
    "",
  ].join("\n");
}

interface BootResult {
  /** NaN when the serial getty's prompt never appeared. */
  secondsToLoginPrompt: number;
  secondsToSsh: number;
  secondsToCloudInitDone: number;
  checks: string;
  marker: string;
  expectedMarker: string;
  agentPing: unknown;
  console: string;
}

// One ssh command for everything the image promises, each answer on its own line (labelled).
const CHECKS = [
  "echo os=$(. /etc/os-release && echo $ID-$VERSION_ID)",
  "echo agent=$(systemctl is-active qemu-guest-agent)",
  "echo sshd=$(systemctl is-enabled ssh)",
  "echo apt-timer=$(systemctl is-enabled apt-daily.timer)",
  "echo root=$(sudo passwd -S root | cut -d' ' -f2)",
  "echo swaps=$(tail -n +2 /proc/swaps | wc -l)",
  "echo fstab=$(grep -c '^LABEL=debian-root / ext4' /etc/fstab)",
  "echo root-label=$(findmnt -n -o LABEL /)",
  "echo apt-security=$(grep -c bookworm-security /etc/apt/sources.list)",
].join("; ");

async function bootAndCheck(
  guest: CloudGuest,
  workDir: string,
  seed: (publicKey: string, marker: string, isoPath: string) => Promise<void>,
): Promise<BootResult> {
  const key = join(workDir, "id_ed25519");
  await runCommand("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", key]);
  const expectedMarker = `marker-${randomBytes(6).toString("hex")}`;
  const iso = join(workDir, "seed.iso");
  await seed(await readFile(`${key}.pub`, "utf8"), expectedMarker, iso);
  const overlay = join(workDir, "disk.qcow2");
  await createQcow2Overlay(guest.disk, overlay);
  const target: SshTarget = { port: await freeLoopbackPort(), user: USER, identityFile: key };
  const agentSocket = join(workDir, "qga.sock");
  const started = Date.now();
  const vm = await bootDiskWithQemu({
    disks: [
      { path: overlay, format: "qcow2" },
      { path: iso, format: "raw", readOnly: true },
    ],
    memoryMiB: 1024,
    sshHostPort: target.port,
    guestAgentSocket: agentSocket,
  });
  const seconds = () => (Date.now() - started) / 1000;
  // Settled into a number right away, so that a prompt that never comes is not an unhandled rejection.
  const loginPrompt = vm.waitForOutput(" login: ", BOOT_TO_SSH_MS).then(seconds, () => Number.NaN);
  try {
    await waitForSsh(target, "true", BOOT_TO_SSH_MS);
    const secondsToSsh = seconds();
    const status = await waitForSsh(
      target,
      "cloud-init status --wait; cloud-init status --long",
      CLOUD_INIT_DONE_MS,
    );
    const secondsToCloudInitDone = seconds();
    const marker = (await sshRun(target, "cat /var/tmp/runcmd-marker")).trim();
    const checks = `${status}\n${await sshRun(target, CHECKS)}`;
    const agentPing = await guestAgentCommand(agentSocket, { execute: "guest-ping" }, 10_000);
    return {
      secondsToLoginPrompt: await loginPrompt,
      secondsToSsh,
      secondsToCloudInitDone,
      checks,
      marker,
      expectedMarker,
      agentPing,
      console: vm.output(),
    };
  } finally {
    await vm.kill();
  }
}

function assertImagePromises(result: BootResult, dataSource: string): void {
  assert.equal(result.marker, result.expectedMarker, "the user-data's runcmd wrote its file");
  assert.match(result.checks, /^status: done$/m);
  assert.match(result.checks, new RegExp(`DataSource${dataSource}`));
  for (const expected of [
    "os=debian-12",
    "agent=active",
    "sshd=enabled",
    "apt-timer=masked",
    "root=L",
    "swaps=0",
    "fstab=1",
    "root-label=debian-root",
    "apt-security=1",
  ]) {
    assert.match(
      result.checks,
      new RegExp(`^${expected}$`, "m"),
      `expected ${expected} in:\n${result.checks}`,
    );
  }
  assert.deepEqual(result.agentPing, { return: {} });
  assert.ok(result.secondsToLoginPrompt > 0, "the serial console showed a login prompt");
  // Booted by its own boot loader, not by QEMU's -kernel.
  assert.match(result.console, /SYSLINUX 6\.04/);
}

describe("the Debian 12 cloud guest", { timeout: 1_500_000 }, () => {
  let guest: CloudGuest;
  let workDir: string;

  before(async () => {
    workDir = await mkdtemp(join(tmpdir(), "cloud-guest-test-"));
    const started = Date.now();
    guest = await ensureCloudGuest();
    const first = Date.now() - started;
    const again = Date.now();
    const cached = await ensureCloudGuest();
    console.log(
      `cloud guest: ${guest.built ? "built" : "cached"} in ${first} ms, cached call ${Date.now() - again} ms`,
    );
    assert.equal(cached.built, false);
    assert.equal(cached.disk, guest.disk);
    assert.equal(cached.digest, guest.digest);
  });

  after(async () => {
    await rm(workDir, { recursive: true, force: true });
  });

  it("is a bootable qcow2 with the kernel and initrd beside it", async () => {
    const { stdout } = await runCommand("qemu-img", ["info", "--output=json", guest.disk]);
    const info = JSON.parse(stdout) as { format: string; "virtual-size": number; "actual-size": number };
    assert.equal(info.format, "qcow2");
    assert.equal(info["virtual-size"], 2048 * 1024 * 1024);
    assert.ok(info["actual-size"] < 400 * 1024 * 1024, `the qcow2 takes ${info["actual-size"]} bytes`);
    assert.match(guest.kernelVersion, /^6\.1\.\d+-\d+-cloud-amd64$/);
    assert.match(guest.kernelArgs, /root=LABEL=debian-root/);
  });

  it("boots with NoCloud: the user logs in with its key, runcmd ran, the agent answers", async () => {
    const dir = await mkdtemp(join(workDir, "nocloud-"));
    const result = await bootAndCheck(guest, dir, (publicKey, marker, iso) =>
      createCidataIso(
        {
          userData: userData(publicKey, marker),
          metaData: "instance-id: nocloud-1\nlocal-hostname: debian-nocloud\n",
        },
        iso,
      ),
    );
    console.log(
      `NoCloud boot: login prompt after ${result.secondsToLoginPrompt} s, ssh after ${result.secondsToSsh} s, cloud-init done after ${result.secondsToCloudInitDone} s`,
    );
    assertImagePromises(result, "NoCloud");
  });

  it("boots with ConfigDrive the same way", async () => {
    const dir = await mkdtemp(join(workDir, "configdrive-"));
    const result = await bootAndCheck(guest, dir, (publicKey, marker, iso) =>
      createConfigDriveIso(
        {
          userData: userData(publicKey, marker),
          metaData: { uuid: "configdrive-1", hostname: "debian-configdrive" },
        },
        iso,
      ),
    );
    console.log(
      `ConfigDrive boot: login prompt after ${result.secondsToLoginPrompt} s, ssh after ${result.secondsToSsh} s, cloud-init done after ${result.secondsToCloudInitDone} s`,
    );
    assertImagePromises(result, "ConfigDrive");
  });
});
