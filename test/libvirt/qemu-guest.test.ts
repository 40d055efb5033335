// The test guest on qemu:///system (TCG), end to end through our libvirt binding and our domain model:
// define (XML from domainToXml) → start paused → open the console → resume → banner, with the cloud-init
// cidata echoed by the guest → a typed command answered → suspend/resume → ACPI power button → stopped
// event with its reason → end of the console stream → undefine → nothing left behind.
// The guest runs on a qcow2 overlay of the shared image, which must come out unchanged.
import assert from "node:assert/strict";
import { createHash, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import {
  domainFromXml,
  domainToXml,
  findMetadata,
  metadataChildText,
} from "../../libvirt/domain-xml/index.js";
import {
  Connection,
  type ConsoleStream,
  DefinedDetail,
  type Domain,
  DomainState,
  PausedReason,
  ResumedDetail,
  RunningReason,
  ShutdownDetail,
  ShutdownFlags,
  ShutoffReason,
  StartedDetail,
  StartFlags,
  StoppedDetail,
  SuspendedDetail,
  UndefinedDetail,
} from "../../libvirt/index.js";
import { ensureTestGuest, type TestGuest } from "../guest/ensure-test-guest.js";
import {
  extractCidataFile,
  parseTestGuestStatus,
  TEST_GUEST_BANNER,
  TEST_GUEST_PROMPT,
  TEST_GUEST_SHUTDOWN_MESSAGE,
} from "../guest/guest-console.js";
import { runCleanupSteps } from "./testing/cleanup-steps.js";
import { ConsoleTranscript, typeLine } from "./testing/console-transcript.js";
import { leftoversOf, removeQemuLog, removeTestDomain } from "./testing/domain-cleanup.js";
import { TEST_METADATA_NAMESPACE, testGuestDomain } from "./testing/guest-domain.js";
import { createGuestWorkspace, type GuestWorkspace } from "./testing/guest-workspace.js";
import { LifecycleRecorder } from "./testing/lifecycle-recorder.js";
import { withTimeout } from "./testing/wait-until.js";

const URI = "qemu:///system";
const LIBVIRTD_SOCKET = "/run/libvirt/libvirt-sock";
const skip = existsSync(LIBVIRTD_SOCKET) ? false : "libvirtd is not running (npm run setup-host starts it)";

// About 5 s to the banner alone under TCG; generous for a loaded 2-core CI machine.
// Building the guest the first time downloads a kernel package; cleanup may wait for QEMU to go.
const HOOK_TIMEOUT_MS = 300_000;
const BOOT_TIMEOUT_MS = 60_000;
const EVENT_TIMEOUT_MS = 15_000;
const COMMAND_TIMEOUT_MS = 15_000;
const SHUTDOWN_TIMEOUT_MS = 30_000;

const HOSTNAME = "e2e-guest";
const USER_DATA = '#cloud-config\nruncmd:\n  - echo "from user-data & <cidata>"\n';

async function sha256(file: string): Promise<string> {
  return createHash("sha256")
    .update(await readFile(file))
    .digest("hex");
}

describe("the test guest on qemu:///system, through the binding and the domain model", { skip }, () => {
  const name = `e2e-guest-${process.pid}-${randomUUID().slice(0, 8)}`;
  const runId = randomUUID();
  const metaData = `instance-id: ${runId}\nlocal-hostname: ${HOSTNAME}\n`;
  let guest: TestGuest;
  let baseImageDigest: string;
  let workspace: GuestWorkspace | undefined;
  let conn: Connection | undefined;
  let recorder: LifecycleRecorder;
  let domain: Domain | undefined;
  let serial: ConsoleStream | undefined;
  let transcript: ConsoleTranscript;
  let bannerEnd = 0;

  before(
    async () => {
      guest = await ensureTestGuest();
      baseImageDigest = await sha256(guest.disk);
      workspace = await createGuestWorkspace(guest, {
        userData: USER_DATA,
        metaData,
      });
      conn = await Connection.open(URI);
      recorder = new LifecycleRecorder(conn, name); // before define, so "defined" is recorded too
    },
    { timeout: HOOK_TIMEOUT_MS },
  );

  after(
    () =>
      runCleanupSteps({
        "stop recording events": () => recorder?.stop(),
        "close the console": () => serial?.destroy(),
        "free the domain": () => domain?.free(),
        "close the connection": () => conn?.close(),
        "remove the domain": () => removeTestDomain(URI, name), // a no-op when the test got to undefine
        "remove the workspace": () => workspace?.remove(),
      }),
    { timeout: HOOK_TIMEOUT_MS },
  );

  test("defines the domain from domainToXml, and reads libvirt's XML of it back with domainFromXml", {
    timeout: 30_000,
  }, async () => {
    assert.ok(conn && workspace);
    const definition = testGuestDomain({
      name,
      guest,
      rootDisk: workspace.rootDisk,
      cidataIso: workspace.cidataIso,
      runId,
    });
    domain = await conn.defineDomain(domainToXml(definition));
    assert.equal(domain.isPersistent(), true);
    assert.equal(domain.isActive(), false);
    const stored = domainFromXml(domain.xml());
    assert.equal(stored.name, name);
    assert.equal(stored.type, "qemu");
    assert.equal(stored.uuid, domain.uuid);
    assert.deepEqual(
      stored.devices.disks?.map((disk) => [
        disk.device,
        disk.source,
        disk.target.bus,
        disk.readonly ?? false,
      ]),
      [
        ["disk", workspace.rootDisk, "virtio", false],
        ["cdrom", workspace.cidataIso, "sata", true],
      ],
    );
    const metadata = findMetadata(stored, TEST_METADATA_NAMESPACE);
    assert.ok(metadata, "our metadata element is stored with the domain");
    assert.equal(metadataChildText(metadata, "run"), runId);
    assert.equal((await recorder.waitFor("defined", EVENT_TIMEOUT_MS)).detail, DefinedDetail.Added);
  });

  test("starts paused, opens the console, and resumes: the banner arrives", {
    timeout: 90_000,
  }, async (t) => {
    assert.ok(domain);
    const startedAt = performance.now();
    await domain.start(StartFlags.Paused);
    assert.deepEqual(domain.state(), { state: DomainState.Paused, reason: PausedReason.User });
    serial = domain.openConsole({ force: true });
    transcript = new ConsoleTranscript(serial);
    await domain.resume();
    bannerEnd = await transcript.waitFor(TEST_GUEST_BANNER, BOOT_TIMEOUT_MS);
    t.diagnostic(`start to banner: ${Math.round(performance.now() - startedAt)} ms`);
    assert.deepEqual(domain.state(), { state: DomainState.Running, reason: RunningReason.Unpaused });
    assert.equal((await recorder.waitFor("started", EVENT_TIMEOUT_MS)).detail, StartedDetail.Booted);
    assert.equal((await recorder.waitFor("resumed", EVENT_TIMEOUT_MS)).detail, ResumedDetail.Unpaused);
  });

  test("the cloud-init cidata reached the guest, which echoed its user-data and meta-data", () => {
    assert.deepEqual(parseTestGuestStatus(transcript.text), { root: "/dev/vda", cidata: "/dev/sr0" });
    assert.equal(extractCidataFile(transcript.text, "user-data"), USER_DATA);
    assert.equal(extractCidataFile(transcript.text, "meta-data"), metaData);
  });

  test("answers a typed command (with the hostname it took from the cidata meta-data)", {
    timeout: 30_000,
  }, async () => {
    assert.ok(serial);
    const promptEnd = await transcript.waitFor(TEST_GUEST_PROMPT, COMMAND_TIMEOUT_MS, bannerEnd);
    await typeLine(serial, "echo hello-$((6*7)) $(hostname)");
    // The echo of the typed line says "hello-$((6*7))": only the shell's answer says "hello-42".
    await transcript.waitFor(`hello-42 ${HOSTNAME}`, COMMAND_TIMEOUT_MS, promptEnd);
  });

  test("suspend and resume: typed events and states, and the guest runs on afterwards", {
    timeout: 60_000,
  }, async () => {
    assert.ok(domain && serial);
    await domain.suspend();
    // Starting paused gave the first "suspended" and "resumed"; these are the second ones.
    assert.equal((await recorder.waitFor("suspended", EVENT_TIMEOUT_MS, 2)).detail, SuspendedDetail.Paused);
    assert.deepEqual(domain.state(), { state: DomainState.Paused, reason: PausedReason.User });
    await domain.resume();
    assert.equal((await recorder.waitFor("resumed", EVENT_TIMEOUT_MS, 2)).detail, ResumedDetail.Unpaused);
    assert.deepEqual(domain.state(), { state: DomainState.Running, reason: RunningReason.Unpaused });
    const from = transcript.text.length;
    await typeLine(serial, "echo resumed-$((40+2))");
    await transcript.waitFor("resumed-42", COMMAND_TIMEOUT_MS, from);
  });

  test("ACPI shutdown: the guest powers off, stopped event with its reason, end of the console stream", {
    timeout: 60_000,
  }, async () => {
    assert.ok(domain);
    const from = transcript.text.length;
    await domain.shutdown(ShutdownFlags.AcpiPowerButton);
    await transcript.waitFor(TEST_GUEST_SHUTDOWN_MESSAGE, SHUTDOWN_TIMEOUT_MS, from);
    const stopped = await recorder.waitFor("stopped", SHUTDOWN_TIMEOUT_MS);
    assert.equal(stopped.detail, StoppedDetail.Shutdown);
    assert.equal((await recorder.waitFor("shutdown", EVENT_TIMEOUT_MS)).detail, ShutdownDetail.Guest);
    assert.deepEqual(domain.state(), { state: DomainState.Shutoff, reason: ShutoffReason.Shutdown });
    const finish = await withTimeout(transcript.finished, EVENT_TIMEOUT_MS, "the end of the console stream");
    assert.deepEqual(finish, { how: "end" });
  });

  test("undefine: every event arrived once, in order, and no domain or file is left behind", {
    timeout: 30_000,
  }, async () => {
    assert.ok(conn && domain && workspace);
    await domain.undefine();
    assert.equal((await recorder.waitFor("undefined", EVENT_TIMEOUT_MS)).detail, UndefinedDetail.Removed);
    domain.free();
    domain = undefined;
    assert.deepEqual(recorder.summary(), [
      `defined/${DefinedDetail.Added}`,
      `started/${StartedDetail.Booted}`,
      `suspended/${SuspendedDetail.Paused}`, // started paused
      `resumed/${ResumedDetail.Unpaused}`,
      `suspended/${SuspendedDetail.Paused}`,
      `resumed/${ResumedDetail.Unpaused}`,
      `shutdown/${ShutdownDetail.Guest}`,
      `stopped/${StoppedDetail.Shutdown}`,
      `undefined/${UndefinedDetail.Removed}`,
    ]);
    await removeQemuLog(name);
    await workspace.remove();
    assert.deepEqual(leftoversOf(conn, name), []);
    assert.equal(existsSync(workspace.dir), false, `${workspace.dir} is removed`);
    assert.equal(await sha256(guest.disk), baseImageDigest, "the shared guest image was never written");
  });
});
