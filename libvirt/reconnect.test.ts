// Reconnection after the daemon goes away, without restarting the shared libvirtd: the connection goes
// through a relay process (test+unix with ?socket=), and killing the relay looks to the client exactly
// like a daemon that died; a new relay is a daemon that came back.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Connection } from "./connection.js";
import { ErrorCode } from "./error-codes.js";
import { LibvirtError } from "./errors.js";
import { CloseReason } from "./flags.js";
import { testDomainXml, uniqueName } from "./testing/test-domains.js";

const LIBVIRTD_SOCKET = "/run/libvirt/libvirt-sock";
const skip = existsSync(LIBVIRTD_SOCKET) ? false : "libvirtd is not running (npm run setup-host starts it)";

// The relay runs in its own process: a relay on the main thread would deadlock with synchronous calls.
const RELAY = `
const net = require("node:net"), fs = require("node:fs");
const [path, upstreamPath] = process.argv.slice(1);
try { fs.unlinkSync(path); } catch {}
net.createServer((client) => {
  const upstream = net.connect(upstreamPath);
  client.pipe(upstream); upstream.pipe(client);
  const close = () => { client.destroy(); upstream.destroy(); };
  for (const socket of [client, upstream]) { socket.on("error", close); socket.on("close", close); }
}).listen(path, () => process.stdout.write("ready\\n"));`;

function startRelay(path: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", RELAY, path, LIBVIRTD_SOCKET], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    child.once("error", reject);
    child.stdout?.once("data", () => resolve(child));
  });
}

async function stopRelay(relay: ChildProcess): Promise<void> {
  if (relay.exitCode !== null || relay.signalCode !== null) return;
  const exited = new Promise((resolve) => relay.once("exit", resolve));
  relay.kill("SIGKILL");
  await exited;
}

describe("reconnection after the daemon goes away", { skip }, () => {
  let dir: string;
  let relay: ChildProcess;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "libvirt-relay-"));
    relay = await startRelay(join(dir, "sock"));
  });
  after(async () => {
    await stopRelay(relay);
    rmSync(dir, { recursive: true, force: true });
  });

  test("reopens, re-registers event callbacks, and domains look themselves up again", async () => {
    const path = join(dir, "sock");
    const conn = await Connection.open(`test+unix:///default?socket=${path}`, {
      reconnect: { initialDelayMs: 20 },
    });
    const statuses: string[] = [];
    conn.on("disconnected", (reason) => statuses.push(`disconnected:${CloseReason[reason]}`));
    conn.on("reconnectFailed", () => statuses.push("failed"));
    const reconnected = new Promise<void>((resolve) => conn.once("reconnected", resolve));
    const events: string[] = [];
    const prefix = uniqueName("rc");
    conn.onLifecycle((event) => {
      if (event.domain.name.startsWith(prefix)) events.push(`${event.kind}:${event.domain.name}`);
    });
    const builtIn = conn.lookupDomainByName("test");
    try {
      await stopRelay(relay);
      await until(() => statuses.includes("disconnected:EndOfFile"), 5_000, "the close callback");
      assert.equal(conn.connected, false);
      assert.throws(
        () => builtIn.state(),
        (err: unknown) => LibvirtError.is(err, ErrorCode.NoConnect),
      );
      await until(() => statuses.includes("failed"), 5_000, "a failed attempt while the daemon is away");
      relay = await startRelay(path);
      await reconnected;
      assert.equal(conn.isAlive(), true);
      assert.equal(conn.generation, 1);
      assert.equal(builtIn.state().state, 1);
      const domain = await conn.defineDomain(testDomainXml(`${prefix}-after`));
      await domain.undefine();
      domain.free();
      await until(() => events.length >= 2, 5_000, "events on the new connection");
      assert.deepEqual(events, [`defined:${prefix}-after`, `undefined:${prefix}-after`]);
    } finally {
      builtIn.free();
      await conn.close();
    }
  });

  test("without reconnection the connection stays closed", async () => {
    const conn = await Connection.open(`test+unix:///default?socket=${join(dir, "sock")}`, {
      reconnect: false,
    });
    const disconnected = new Promise((resolve) => conn.once("disconnected", resolve));
    await stopRelay(relay);
    assert.equal(await disconnected, CloseReason.EndOfFile);
    relay = await startRelay(join(dir, "sock"));
    await sleep(200);
    assert.equal(conn.connected, false);
    await conn.close();
  });
});

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(10);
  }
}
