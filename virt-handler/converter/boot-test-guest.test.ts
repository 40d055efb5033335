// One real boot, end to end through this folder's code: examples/vm-tiny.yaml (a VM in KubeVirt's shape:
// containerDisk + kernelBoot from the local test-guest image, cloudInitNoCloud user-data, a masquerade
// interface) → its VMI → prepareVolumes → convertVmi → domainToXml → defined and started on
// qemu:///system (TCG) through our libvirt binding → the banner and the user-data on the console, the
// firmware UUID and the MAC seen by the guest → destroyed, undefined, files removed, nothing left behind.
import assert from "node:assert/strict";
import { createHash, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { VirtualMachine, VirtualMachineInstance } from "../../api/index.js";
import { domainFromXml, domainToXml } from "../../libvirt/domain-xml/index.js";
import { Connection, type ConsoleStream, type Domain, StartFlags } from "../../libvirt/index.js";
import { ensureTestGuest, type TestGuest } from "../../test/guest/ensure-test-guest.js";
import {
  extractCidataFile,
  parseTestGuestStatus,
  TEST_GUEST_BANNER,
  TEST_GUEST_PROMPT,
} from "../../test/guest/guest-console.js";
import { runCleanupSteps } from "../../test/libvirt/testing/cleanup-steps.js";
import { ConsoleTranscript, typeLine } from "../../test/libvirt/testing/console-transcript.js";
import { leftoversOf, removeQemuLog, removeTestDomain } from "../../test/libvirt/testing/domain-cleanup.js";
import { LocalImageStore } from "../container-disk/local-image-store.js";
import { stableMacAddress } from "../network/guest-mac.js";
import { nodeTapName } from "../network/tap-name.js";
import { runCommand } from "../storage/host-commands.js";
import { prepareVolumes, removeVmFiles } from "../storage/prepare-volumes.js";
import { convertVmi, domainNameOf, vmiUidFromDomain } from "./convert-vmi.js";
import { loadExample, vmiFromVirtualMachine } from "./testing/test-vmis.js";

const URI = "qemu:///system";
const skip = existsSync("/run/libvirt/libvirt-sock")
  ? false
  : "libvirtd is not running (npm run setup-host starts it)";
const BOOT_TIMEOUT_MS = 45_000;
const COMMAND_TIMEOUT_MS = 10_000;

async function sha256(file: string): Promise<string> {
  return createHash("sha256")
    .update(await readFile(file))
    .digest("hex");
}

describe("examples/vm-tiny.yaml boots on qemu:///system through prepareVolumes and convertVmi", {
  skip,
}, () => {
  const uid = randomUUID();
  let guest: TestGuest;
  let vm: VirtualMachine;
  let vmi: VirtualMachineInstance;
  let domainName: string;
  let vmDir: string;
  let baseDisk: string;
  let baseDigest: string;
  let conn: Connection | undefined;
  let domain: Domain | undefined;
  let serial: ConsoleStream | undefined;
  let transcript: ConsoleTranscript;
  let bannerEnd = 0;

  before(
    async () => {
      guest = await ensureTestGuest();
      vm = (await loadExample("vm-tiny.yaml")) as VirtualMachine;
      // The example names the guest in the dev cluster's registry; here the same files come from
      // the local image store the builder wrote (no registry in this test).
      const template = vm.spec.template.spec;
      const disk = template?.volumes?.[0]?.containerDisk;
      const kernel = template?.domain.firmware?.kernelBoot?.container;
      assert.equal(disk?.image, "localhost:5000/kubevirt-ts/test-guest:latest");
      assert.equal(kernel?.image, disk?.image);
      if (disk && kernel) {
        disk.image = guest.image;
        kernel.image = guest.image;
      }
      vmi = vmiFromVirtualMachine(vm, {
        namespace: "kubevirt-ts-converter-test",
        name: `vm-tiny-${process.pid}-${uid.slice(0, 8)}`,
        uid,
      });
      domainName = domainNameOf({ metadata: vmi.metadata ?? {} });
      vmDir = await mkdtemp(join(tmpdir(), "vm-tiny-"));
      baseDisk = join(guest.imageDirectory, "rootfs/disk/disk.qcow2");
      baseDigest = await sha256(baseDisk);
      conn = await Connection.open(URI);
      // virt-handler makes the masquerade interface's tap on the node before the start (network/);
      // here there is no launcher pod to move it into, so it stays on the node, down and unused.
      await runCommand("ip", ["tuntap", "add", "dev", nodeTapName(uid, "default"), "mode", "tap"]);
    },
    { timeout: 300_000 },
  );

  after(
    () =>
      runCleanupSteps({
        "close the console": () => serial?.destroy(),
        "free the domain": () => domain?.free(),
        "close the connection": () => conn?.close(),
        "remove the domain": () => removeTestDomain(URI, domainName),
        "remove the VM's files": () => removeVmFiles(vmDir),
        "remove the tap": () =>
          runCommand("ip", ["link", "del", nodeTapName(uid, "default")]).catch(() => {}),
      }),
    { timeout: 60_000 },
  );

  test("prepares, converts, defines and boots to the banner", { timeout: 90_000 }, async (t) => {
    assert.ok(conn);
    const started = performance.now();
    const prepared = await prepareVolumes(vmi, { vmDir, images: new LocalImageStore(guest.storeDir) });
    const definition = convertVmi(vmi, prepared, {
      domainName,
      emulation: true,
      vncSocketPath: join(vmDir, "vnc.sock"),
      serialLogPath: join(vmDir, "serial.log"),
    });
    const converted = performance.now();
    domain = await conn.defineDomain(domainToXml(definition));
    await domain.start(StartFlags.Paused);
    serial = domain.openConsole({ force: true });
    transcript = new ConsoleTranscript(serial);
    await domain.resume();
    bannerEnd = await transcript.waitFor(TEST_GUEST_BANNER, BOOT_TIMEOUT_MS);
    const booted = performance.now();
    t.diagnostic(
      `prepare + convert ${Math.round(converted - started)} ms, define + start to banner ${Math.round(booted - converted)} ms`,
    );
    assert.deepEqual(vmiUidFromDomain(domainFromXml(domain.xml())), {
      uid,
      name: vmi.metadata?.name,
      namespace: "kubevirt-ts-converter-test",
    });
    assert.equal(domain.uuid, uid, "the domain's UUID is the VMI's uid");
    assert.ok(existsSync(join(vmDir, "vnc.sock")), "QEMU listens for VNC on the unix socket");
  });

  test("the guest found its disks and echoed the VM's cloud-init user-data and meta-data", () => {
    assert.deepEqual(parseTestGuestStatus(transcript.text), { root: "/dev/vda", cidata: "/dev/vdb" });
    const userData = vm.spec.template.spec?.volumes?.[1]?.cloudInitNoCloud?.userData;
    assert.ok(userData);
    assert.equal(extractCidataFile(transcript.text, "user-data"), userData);
    assert.equal(
      extractCidataFile(transcript.text, "meta-data"),
      `instance-id: ${uid}\nlocal-hostname: ${vmi.metadata?.name}\n`,
    );
  });

  test("the guest sees the firmware UUID and the derived MAC", { timeout: 30_000 }, async () => {
    assert.ok(serial);
    const promptEnd = await transcript.waitFor(TEST_GUEST_PROMPT, COMMAND_TIMEOUT_MS, bannerEnd);
    await typeLine(
      serial,
      "echo id=$(cat /sys/class/dmi/id/product_uuid) mac=$(cat /sys/class/net/eth0/address)",
    );
    const firmwareUuid = vmi.spec.domain.firmware?.uuid;
    assert.ok(firmwareUuid);
    await transcript.waitFor(
      `id=${firmwareUuid} mac=${stableMacAddress(uid, "default")}`,
      COMMAND_TIMEOUT_MS,
      promptEnd,
    );
  });

  test("destroy, undefine, remove the files: nothing is left, the image is unchanged", {
    timeout: 60_000,
  }, async () => {
    assert.ok(conn && domain);
    const serialLog = await readFile(join(vmDir, "serial.log"), "latin1");
    assert.ok(serialLog.includes(TEST_GUEST_BANNER), "the serial log file has the console output");
    await domain.destroy();
    await domain.undefine();
    domain.free();
    domain = undefined;
    await removeQemuLog(domainName);
    await removeVmFiles(vmDir);
    assert.deepEqual(leftoversOf(conn, domainName), []);
    assert.equal(existsSync(vmDir), false);
    assert.equal(await sha256(baseDisk), baseDigest, "the image's disk was never written");
  });
});
