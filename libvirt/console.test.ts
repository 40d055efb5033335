// Console streams need QEMU (the test driver has none): these tests run against qemu:///system with a
// guest made of nothing but SeaBIOS printing to the serial port (no kernel, no disk image).
import assert from "node:assert/strict";
import { existsSync, rmSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Connection } from "./connection.js";
import type { Domain } from "./domain.js";
import { ShutdownDetail, StoppedDetail } from "./event-details.js";
import type { LifecycleEvent } from "./events.js";
import { StartFlags } from "./flags.js";
import { DomainState, PausedReason } from "./states.js";
import { uniqueName } from "./testing/test-domains.js";

const LIBVIRTD_SOCKET = "/run/libvirt/libvirt-sock";
const skip = existsSync(LIBVIRTD_SOCKET) ? false : "libvirtd is not running (npm run setup-host starts it)";

function biosOnlyDomainXml(name: string): string {
  return `<domain type='qemu'>
  <name>${name}</name>
  <memory unit='MiB'>32</memory>
  <vcpu>1</vcpu>
  <os><type arch='x86_64' machine='pc'>hvm</type><bios useserial='yes'/></os>
  <on_poweroff>destroy</on_poweroff><on_reboot>restart</on_reboot><on_crash>destroy</on_crash>
  <devices>
    <serial type='pty'><target port='0'/></serial>
    <console type='pty'><target type='serial' port='0'/></console>
    <memballoon model='none'/>
  </devices>
</domain>`;
}

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe("console stream on qemu:///system", { skip }, () => {
  let conn: Connection;
  let domain: Domain;
  const name = uniqueName("lvtest-console");
  const events: LifecycleEvent[] = [];
  before(async () => {
    conn = await Connection.open("qemu:///system");
    domain = await conn.defineDomain(biosOnlyDomainXml(name));
    domain.onLifecycle((event) => events.push(event));
  });
  after(async () => {
    if (domain.isActive()) await domain.destroy();
    await domain.undefine();
    domain.free();
    await conn.close();
    // libvirt keeps each domain's QEMU log after undefine; a test leaves nothing behind.
    rmSync(`/var/log/libvirt/qemu/${name}.log`, { force: true });
  });

  test("starts paused, streams every byte despite a stalled reader, and ends when the guest stops", async () => {
    await domain.start(StartFlags.Paused);
    assert.deepEqual(domain.state(), { state: DomainState.Paused, reason: PausedReason.User });
    const console = domain.openConsole({ force: true, highWaterMark: 1 });
    const ended = new Promise<void>((resolve) => console.once("end", resolve));
    await domain.resume();
    await sleep(1_000); // SeaBIOS prints everything meanwhile; nobody reads
    // With a 1-byte high-water mark the first chunk fills the buffer; the rest must wait in libvirt.
    const bufferedWhileStalled = console.readableLength;
    assert.ok(bufferedWhileStalled > 0, "the first chunk arrived");
    let text = "";
    console.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
    });
    await until(() => text.includes("No bootable device"), 10_000, "SeaBIOS's last line");
    assert.match(text, /SeaBIOS \(version [^)]+\)[\s\S]*Booting from Hard Disk/);
    assert.ok(text.length > bufferedWhileStalled, "more arrived once the reader caught up");
    await new Promise<void>((resolve, reject) =>
      console.write("\r", (err) => (err ? reject(err) : resolve())),
    );
    await domain.destroy();
    await ended;
    assert.equal(console.destroyed || console.readableEnded, true);
  });

  test("delivered QEMU's lifecycle events, typed", async () => {
    await until(() => events.some((e) => e.kind === "stopped"), 5_000, "the stopped event");
    assert.deepEqual(
      events.map((e) => e.kind),
      ["started", "suspended", "resumed", "shutdown", "stopped"],
    );
    assert.equal(events.find((e) => e.kind === "shutdown")?.detail, ShutdownDetail.Host);
    assert.equal(events.find((e) => e.kind === "stopped")?.detail, StoppedDetail.Destroyed);
  });
});
