// A real libvirtd restart while the test guest runs, through our binding: the connection notices the daemon
// going away, the console stream ends, QEMU (not a child of libvirtd) keeps running the same guest, the
// connection reconnects by itself once setup-host has started libvirtd again, the Domain object looks
// itself up on the new connection, and lifecycle events flow again to the subscription made before.
//
// SERIAL: restarting libvirtd cuts every other client's connection and console stream, so this file must
// not run beside other tests that use libvirtd (qemu:///system, or test+unix through the daemon). Before
// the restart it waits until libvirtd has no other client and runs no other domain, which narrows the
// window but cannot close it: run this file on its own.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { domainToXml } from "../../libvirt/domain-xml/index.js";
import {
  CloseReason,
  Connection,
  type ConsoleStream,
  type Domain,
  DomainState,
  ErrorCode,
  LibvirtError,
  PausedReason,
  ResumedDetail,
  RunningReason,
  ShutdownFlags,
  ShutoffReason,
  StartFlags,
  StoppedDetail,
  SuspendedDetail,
} from "../../libvirt/index.js";
import { ensureTestGuest, type TestGuest } from "../guest/ensure-test-guest.js";
import { TEST_GUEST_BANNER, TEST_GUEST_PROMPT } from "../guest/guest-console.js";
import { runCleanupSteps } from "./testing/cleanup-steps.js";
import { ConsoleTranscript, typeLine } from "./testing/console-transcript.js";
import { leftoversOf, removeQemuLog, removeTestDomain } from "./testing/domain-cleanup.js";
import { testGuestDomain } from "./testing/guest-domain.js";
import { createGuestWorkspace, type GuestWorkspace } from "./testing/guest-workspace.js";
import {
  findLibvirtdUnderTini,
  isRunning,
  type LibvirtdUnderTini,
  parentCommand,
  qemuPidOf,
  runSetupHost,
  stopLibvirtd,
  waitUntilLibvirtdIsOurs,
} from "./testing/libvirtd-process.js";
import { LifecycleRecorder } from "./testing/lifecycle-recorder.js";
import { waitUntil, withTimeout } from "./testing/wait-until.js";

const URI = "qemu:///system";
const LIBVIRTD_SOCKET = "/run/libvirt/libvirt-sock";

function whyNotRestartable(): string | false {
  if (!existsSync(LIBVIRTD_SOCKET)) return "libvirtd is not running (npm run setup-host starts it)";
  const daemon = findLibvirtdUnderTini();
  return typeof daemon === "string" ? `cannot restart libvirtd: ${daemon}` : false;
}
const skip = whyNotRestartable();

// Building the guest the first time downloads a kernel package; cleanup may wait for QEMU to go.
const HOOK_TIMEOUT_MS = 300_000;
const BOOT_TIMEOUT_MS = 60_000;
const EVENT_TIMEOUT_MS = 15_000;
const COMMAND_TIMEOUT_MS = 15_000;
const DAEMON_TIMEOUT_MS = 30_000;
// How long to wait for other clients of libvirtd (other tests, most likely) to finish before restarting it.
const OTHERS_TIMEOUT_MS = 120_000;
// After the restart QEMU's parent is PID 1, which reaps slowly (libvirt-here.md §3): allow for that.
const SHUTDOWN_TIMEOUT_MS = 30_000;

function daemonUnderTini(): LibvirtdUnderTini {
  const daemon = findLibvirtdUnderTini();
  if (typeof daemon === "string") throw new Error(`cannot restart libvirtd: ${daemon}`);
  return daemon;
}

/** Whether libvirtd accepts a connection, i.e. the daemon is there for everyone else. */
async function libvirtdAnswers(): Promise<boolean> {
  try {
    const probe = await Connection.open(URI, { reconnect: false });
    await probe.close();
    return true;
  } catch {
    return false;
  }
}

describe("a libvirtd restart while the test guest runs", { skip }, () => {
  const name = `e2e-restart-${process.pid}-${randomUUID().slice(0, 8)}`;
  let guest: TestGuest;
  let workspace: GuestWorkspace | undefined;
  let conn: Connection | undefined;
  let recorder: LifecycleRecorder;
  let domain: Domain | undefined;
  let firstConsole: ConsoleStream | undefined;
  let firstTranscript: ConsoleTranscript;
  let secondConsole: ConsoleStream | undefined;
  let secondTranscript: ConsoleTranscript;
  let qemuPid = 0;

  before(
    async () => {
      guest = await ensureTestGuest();
      workspace = await createGuestWorkspace(guest);
      conn = await Connection.open(URI, { reconnect: { initialDelayMs: 50, maxDelayMs: 500 } });
      recorder = new LifecycleRecorder(conn, name);
    },
    { timeout: HOOK_TIMEOUT_MS },
  );

  after(
    () =>
      runCleanupSteps({
        "stop recording events": () => recorder?.stop(),
        "close the consoles": () => {
          firstConsole?.destroy();
          secondConsole?.destroy();
        },
        "free the domain": () => domain?.free(),
        "close the connection": () => conn?.close(),
        // Whatever failed, leave libvirtd running for everyone else (setup-host starts it when it is down).
        "bring libvirtd back": async () => {
          if (!(await libvirtdAnswers())) await runSetupHost();
        },
        "remove the domain": () => removeTestDomain(URI, name),
        "remove the workspace": () => workspace?.remove(),
      }),
    { timeout: HOOK_TIMEOUT_MS },
  );

  test("boots the guest and leaves a mark in its memory", { timeout: 90_000 }, async () => {
    assert.ok(conn && workspace);
    const definition = testGuestDomain({ name, guest, rootDisk: workspace.rootDisk, runId: randomUUID() });
    domain = await conn.defineDomain(domainToXml(definition));
    await domain.start(StartFlags.Paused);
    firstConsole = domain.openConsole({ force: true });
    firstTranscript = new ConsoleTranscript(firstConsole);
    await domain.resume();
    const bannerEnd = await firstTranscript.waitFor(TEST_GUEST_BANNER, BOOT_TIMEOUT_MS);
    const promptEnd = await firstTranscript.waitFor(TEST_GUEST_PROMPT, COMMAND_TIMEOUT_MS, bannerEnd);
    // /run is a tmpfs: the mark survives only as long as this very guest does (no reboot, no new QEMU).
    await typeLine(firstConsole, `echo ${name} > /run/mark; echo marked-$((1+1))`);
    await firstTranscript.waitFor("marked-2", COMMAND_TIMEOUT_MS, promptEnd);
    qemuPid = qemuPidOf(name);
  });

  test("libvirtd stops: the connection says so, and QEMU keeps running", { timeout: 180_000 }, async (t) => {
    assert.ok(conn && domain);
    await waitUntilLibvirtdIsOurs(conn, name, OTHERS_TIMEOUT_MS);
    const disconnected = new Promise<CloseReason>((resolve) => conn?.once("disconnected", resolve));
    t.diagnostic(`QEMU pid ${qemuPid}, parent ${parentCommand(qemuPid)}`);
    const stoppedAt = performance.now();
    await stopLibvirtd(daemonUnderTini(), DAEMON_TIMEOUT_MS);
    t.diagnostic(`libvirtd stopped in ${Math.round(performance.now() - stoppedAt)} ms`);
    assert.equal(
      await withTimeout(disconnected, EVENT_TIMEOUT_MS, "the close callback"),
      CloseReason.EndOfFile,
    );
    assert.equal(conn.connected, false);
    const lostDomain = domain;
    assert.throws(
      () => lostDomain.state(),
      (err: unknown) => LibvirtError.is(err, ErrorCode.NoConnect),
    );
    assert.equal(isRunning(qemuPid), true, "QEMU outlives libvirtd");
    t.diagnostic(`QEMU's parent now: ${parentCommand(qemuPid)}`);
  });

  // libvirt sends the stream no event when its connection goes away: the Connection ends its consoles.
  test("the console of the lost connection ends by itself", {
    timeout: 10_000,
  }, async () => {
    const finish = await withTimeout(firstTranscript.finished, 1_000, "the old console to end or fail");
    assert.notEqual(finish.how, "close");
  });

  test("setup-host starts libvirtd again; the connection reconnects and the domain finds itself again", {
    timeout: 60_000,
  }, async (t) => {
    assert.ok(conn && domain && firstConsole);
    const reconnected = new Promise<void>((resolve) => conn?.once("reconnected", resolve));
    const restartedAt = performance.now();
    const report = await runSetupHost();
    assert.match(report, /libvirtd\s+started under tini/);
    await withTimeout(reconnected, DAEMON_TIMEOUT_MS, "the connection to reconnect");
    t.diagnostic(
      `libvirtd started and the connection reconnected in ${Math.round(performance.now() - restartedAt)} ms`,
    );
    assert.equal(conn.connected, true);
    assert.equal(conn.generation, 1);
    assert.equal(qemuPidOf(name), qemuPid, "libvirtd adopted the same QEMU process");
    assert.deepEqual(domain.state(), { state: DomainState.Running, reason: RunningReason.Unpaused });
  });

  test("it is the same guest: a new console reaches the shell, and the mark is still there", {
    timeout: 30_000,
  }, async () => {
    assert.ok(domain);
    secondConsole = domain.openConsole({ force: true });
    secondTranscript = new ConsoleTranscript(secondConsole);
    await typeLine(secondConsole, "echo mark=$(cat /run/mark) after-$((2+3))");
    await secondTranscript.waitFor(`mark=${name} after-5`, COMMAND_TIMEOUT_MS);
  });

  test("events flow again to the subscription made before the restart: suspend and resume", {
    timeout: 30_000,
  }, async () => {
    assert.ok(domain);
    // Starting paused gave the first "suspended" and "resumed"; these are the second ones.
    await domain.suspend();
    assert.equal((await recorder.waitFor("suspended", EVENT_TIMEOUT_MS, 2)).detail, SuspendedDetail.Paused);
    assert.deepEqual(domain.state(), { state: DomainState.Paused, reason: PausedReason.User });
    await domain.resume();
    assert.equal((await recorder.waitFor("resumed", EVENT_TIMEOUT_MS, 2)).detail, ResumedDetail.Unpaused);
  });

  test("ACPI shutdown after the restart: stopped event, end of the new console; then nothing left", {
    timeout: 90_000,
  }, async (t) => {
    assert.ok(conn && domain && workspace);
    const shutdownAt = performance.now();
    await domain.shutdown(ShutdownFlags.AcpiPowerButton);
    assert.equal((await recorder.waitFor("stopped", SHUTDOWN_TIMEOUT_MS)).detail, StoppedDetail.Shutdown);
    t.diagnostic(`ACPI shutdown to stopped event: ${Math.round(performance.now() - shutdownAt)} ms`);
    assert.deepEqual(domain.state(), { state: DomainState.Shutoff, reason: ShutoffReason.Shutdown });
    assert.deepEqual(await withTimeout(secondTranscript.finished, EVENT_TIMEOUT_MS, "the console to end"), {
      how: "end",
    });
    await waitUntil(() => !isRunning(qemuPid), SHUTDOWN_TIMEOUT_MS, `QEMU (pid ${qemuPid}) to exit`);
    await domain.undefine();
    await recorder.waitFor("undefined", EVENT_TIMEOUT_MS);
    domain.free();
    domain = undefined;
    await removeQemuLog(name);
    await workspace.remove();
    assert.deepEqual(leftoversOf(conn, name), []);
    assert.equal(existsSync(workspace.dir), false, `${workspace.dir} is removed`);
  });
});
