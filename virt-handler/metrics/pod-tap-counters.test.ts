// PodTapCounters against a real tap in a real network namespace, set up as virt-handler sets up a
// pod interface: a "launcher" process in its own namespace carrying the pod's uid, a tap opened on
// the node (this test holds its descriptor, as QEMU does), moved into the pod and renamed tap0.
// Traffic goes both ways through it and the counters must say who received what. Runs as root.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { stat } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import type { Frozen } from "../../runtime/index.js";
import type { Pod, Vmi } from "../kinds.js";
import { runCommand } from "../storage/host-commands.js";
import { openTap, type TapDevice } from "../testing/tap-device.js";
import type { NicCounters } from "./domain-sample.js";
import { PodTapCounters } from "./pod-tap-counters.js";

const NETNS = `kvts-metrics-${process.pid}`;
const POD_UID = randomUUID();
const NODE_TAP = `ktm${process.pid.toString(16)}`.slice(0, 15);
const TAP_ADDRESS = "10.213.0.1";
const GUEST = { ip: "10.213.0.2", mac: "02:00:0a:d5:00:02" };
const UDP_PAYLOAD = 100;
/** Ethernet (14) + IPv4 (20) + UDP (8) headers around each datagram the host sends the guest. */
const UDP_FRAME = 14 + 20 + 8 + UDP_PAYLOAD;

const vmi: Frozen<Vmi> = {
  apiVersion: "kubevirt.io/v1",
  kind: "VirtualMachineInstance",
  metadata: { namespace: "default", name: "counted", uid: randomUUID() },
  spec: { domain: { devices: {} } },
};
const pod: Frozen<Pod> = {
  apiVersion: "v1",
  kind: "Pod",
  metadata: { namespace: "default", name: "virt-launcher-counted", uid: POD_UID },
};

const inPod = (command: string, args: readonly string[]) =>
  runCommand("ip", ["netns", "exec", NETNS, command, ...args]);

/** The host, inside the pod, sends `count` UDP datagrams to the guest behind tap0. */
function sendToGuest(count: number): Promise<string> {
  const script = `const s = require("node:dgram").createSocket("udp4"); let n = 0;
    const next = () => n++ < ${count} ? s.send(Buffer.alloc(${UDP_PAYLOAD}), 9, "${GUEST.ip}", next) : s.close();
    next();`;
  return inPod(process.execPath, ["-e", script]);
}

/** A broadcast frame of 60 bytes (the Ethernet minimum) of an experimental EtherType, from the guest. */
function guestFrame(): Buffer {
  const frame = Buffer.alloc(60);
  frame.fill(0xff, 0, 6);
  Buffer.from(GUEST.mac.split(":").map((byte) => Number.parseInt(byte, 16))).copy(frame, 6);
  frame.writeUInt16BE(0x88b5, 12);
  return frame;
}

async function waitUntilInOwnNetns(pid: number): Promise<void> {
  const own = (await stat("/proc/self/ns/net")).ino;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const netns = await stat(`/proc/${pid}/ns/net`).catch(() => undefined);
    if (netns !== undefined && netns.ino !== own) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the launcher process ${pid} did not enter ${NETNS}`);
}

describe("PodTapCounters: a pod interface's tap in the launcher's network namespace", () => {
  let launcher: ChildProcess | undefined;
  let tap: TapDevice | undefined;
  let podKnown = true;
  const counters = new PodTapCounters({ launcherPod: () => (podKnown ? pod : undefined) });

  before(async () => {
    await runCommand("ip", ["netns", "add", NETNS]);
    launcher = spawn("ip", ["netns", "exec", NETNS, "sleep", "600"], {
      env: { ...process.env, KUBEVIRT_LAUNCHER_POD_UID: POD_UID },
      stdio: "ignore",
    });
    await waitUntilInOwnNetns(launcher.pid ?? 0);
    tap = openTap(NODE_TAP);
  });

  after(async () => {
    tap?.close();
    launcher?.kill();
    await runCommand("ip", ["netns", "del", NETNS]).catch(() => undefined);
  });

  test("while the tap is still on the node, the pod has none to read: no counters", async () => {
    assert.equal(await counters.read(vmi), undefined);
  });

  test("moved into the pod as tap0: what the host sends there the guest receives, and the other way", async () => {
    const pid = String(launcher?.pid);
    await runCommand("ip", ["link", "set", "dev", NODE_TAP, "netns", pid]);
    await inPod("ip", ["link", "set", "dev", NODE_TAP, "name", "tap0"]);
    // No IPv6 on the tap: its router solicitations would count as traffic to the guest.
    await inPod("sysctl", ["-q", "-w", "net.ipv6.conf.tap0.disable_ipv6=1"]);
    await inPod("ip", ["addr", "add", `${TAP_ADDRESS}/24`, "dev", "tap0"]);
    await inPod("ip", ["link", "set", "tap0", "up"]);
    await inPod("ip", ["neigh", "replace", GUEST.ip, "lladdr", GUEST.mac, "dev", "tap0", "nud", "permanent"]);

    const before = await counters.read(vmi);
    assert.ok(before, "tap0 is in the pod: its counters are read");
    await sendToGuest(5);
    const received = tap?.receiveFrames() ?? [];
    assert.ok(received.filter((size) => size === UDP_FRAME).length >= 5, `frames for the guest: ${received}`);
    for (let frame = 0; frame < 3; frame += 1) tap?.sendFrame(guestFrame());
    const now = await counters.read(vmi);
    assert.ok(now);
    const grew = (key: keyof NicCounters) => (now[key] ?? 0) - (before[key] ?? 0);
    assert.equal(grew("rxPackets"), received.length, "the guest received what it took from the tap");
    assert.equal(
      grew("rxBytes"),
      received.reduce((sum, size) => sum + size, 0),
    );
    assert.equal(grew("txPackets"), 3, "the guest sent 3 frames");
    assert.equal(grew("txBytes"), 3 * 60);
    // Nothing in the pod takes the experimental EtherType: the guest's frames are dropped there.
    assert.equal(grew("txDrops"), 3, "the guest's frames the pod dropped");
    assert.equal(grew("rxDrops"), 0);
    assert.equal(now.rxErrors, 0);
  });

  test("the launcher pod not (yet) in the cache: no counters", async () => {
    podKnown = false;
    assert.equal(await counters.read(vmi), undefined);
    podKnown = true;
  });

  test("the launcher's processes gone: its namespace is no longer read", async () => {
    assert.ok(await counters.read(vmi), "read through the launcher's pid");
    const exited = new Promise((resolve) => launcher?.once("exit", resolve));
    launcher?.kill();
    await exited;
    assert.equal(await counters.read(vmi), undefined);
  });
});
