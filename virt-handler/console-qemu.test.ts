// virt-handler's console server on the node's real libvirt (qemu:///system, TCG) with the test
// guest, seen from virt-api's side: mutual TLS from the Secret virt-operator would write, the serial
// console (banner, typed commands, takeover, a burst of output), WebSocket pings, VNC, and pause.
// One guest boot serves every test (they run in order and share it).
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { Duplex } from "node:stream";
import { after, before, describe, test } from "node:test";
import { pino } from "pino";
import type { WebSocket } from "ws";
import { Connection, DomainState } from "../libvirt/index.js";
import { secretKind } from "../runtime/tls/secret-tls-source.js";
import { CERTIFICATE_SECRETS } from "../runtime/tls/tls-material.js";
import { ensureTestGuest, type TestGuest } from "../test/guest/ensure-test-guest.js";
import { TEST_GUEST_BANNER } from "../test/guest/guest-console.js";
import { ConsoleTranscript, typeLine } from "../test/libvirt/testing/console-transcript.js";
import { CONSOLE_TAKEN_OVER_CODE, CONSOLE_TAKEN_OVER_REASON } from "./console-server/console-sessions.js";
import { vmiKind } from "./kinds.js";
import { type ConsolePki, issueConsolePki, serverSecret } from "./testing/console-certificates.js";
import {
  type ConsoleEndpoint,
  closeOf,
  openWebSocket,
  send,
  subresourcePath,
  type WebSocketOutcome,
} from "./testing/console-client.js";
import {
  createScheduledVmi,
  eventually,
  type HandlerCluster,
  setUseEmulation,
  startHandlerCluster,
} from "./testing/handler-cluster.js";
import { type RunningVirtHandler, startVirtHandler } from "./virt-handler.js";

const NAME = `console-${process.pid}`;
const DOMAIN = `default_${NAME}`;
const BOOT_TIMEOUT_MS = 60_000;
const PING_INTERVAL_MS = 300;
const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

/** A console connection: the WebSocket, its bytes as a stream (for typeLine), and a transcript. */
interface ConsoleClient {
  readonly ws: WebSocket;
  readonly stream: Duplex;
  readonly transcript: ConsoleTranscript;
}

/** Opens a console; undefined when the server refused (e.g. while the domain is not yet running). */
async function openConsole(
  endpoint: ConsoleEndpoint,
  path: string,
  pki: ConsolePki,
): Promise<ConsoleClient | undefined> {
  let ws: WebSocket | undefined;
  const stream = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, done) {
      if (ws === undefined) done(new Error("the console is not open"));
      else ws.send(chunk, { binary: true }, done);
    },
  });
  const transcript = new ConsoleTranscript(stream);
  const outcome = await openWebSocket(endpoint, path, pki.virtApi, {
    onMessage: (data) => stream.push(data),
  });
  if (outcome.kind !== "open") {
    stream.destroy();
    return undefined;
  }
  ws = outcome.ws;
  ws.once("close", () => stream.push(null));
  return { ws, stream, transcript };
}

function opened(outcome: WebSocketOutcome): WebSocket {
  if (outcome.kind === "open") return outcome.ws;
  const why = outcome.kind === "refused" ? `${outcome.status} ${outcome.body}` : outcome.error.message;
  throw new Error(`the WebSocket did not open: ${why}`);
}

/** Resolves with everything received from `from` on, once `marker` ends it (scans only the tail). */
function collectUntil(client: ConsoleClient, marker: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: string[] = [];
    let tail = "";
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString("latin1");
      chunks.push(text);
      const seen = tail + text;
      tail = seen.slice(-marker.length);
      if (!seen.includes(marker)) return;
      clearTimeout(timer);
      client.stream.off("data", onData);
      resolve(chunks.join(""));
    };
    const timer = setTimeout(() => {
      client.stream.off("data", onData);
      reject(new Error(`"${marker}" did not arrive within ${timeoutMs} ms; last: ${tail}`));
    }, timeoutMs);
    client.stream.on("data", onData);
  });
}

describe("virt-handler's console server with the test guest", { timeout: 180_000 }, () => {
  let cluster: HandlerCluster;
  let guest: TestGuest;
  let libvirt: Connection;
  let handler: RunningVirtHandler;
  let pki: ConsolePki;
  let endpoint: ConsoleEndpoint;
  let first: ConsoleClient;
  let second: ConsoleClient;

  const path = (subresource: string): string => subresourcePath("default", NAME, subresource);
  const getVmi = () => cluster.client.resource(vmiKind).get({ namespace: "default", name: NAME });

  before(async () => {
    [guest, pki] = await Promise.all([ensureTestGuest(), issueConsolePki()]);
    cluster = await startHandlerCluster();
    await setUseEmulation(cluster, true); // also creates the namespace "kubevirt"
    await cluster.client
      .resource(secretKind)
      .create(serverSecret(pki, "kubevirt", CERTIFICATE_SECRETS.handlerServer));
    await createScheduledVmi(cluster, {
      name: NAME,
      image: guest.image,
      domain: {
        resources: { requests: { memory: "128Mi" } },
        firmware: {
          kernelBoot: {
            container: { image: guest.image, kernelPath: "/boot/vmlinuz", initrdPath: "/boot/initramfs.gz" },
            kernelArgs: guest.kernelArgs,
          },
        },
        // No NIC: no launcher process runs here, so there is no pod network to join.
        devices: { disks: [], interfaces: [], autoattachPodInterface: false },
      },
      volumes: [],
    });
    libvirt = await Connection.open("qemu:///system");
    handler = await startVirtHandler({
      nodeName: cluster.nodeName,
      libvirtUri: "qemu:///system",
      kubeConfig: cluster.api.kubeConfig(),
      namespace: "kubevirt",
      stateDir: join(cluster.workDir, "state"),
      imageStore: guest.storeDir,
      console: { host: "127.0.0.1", port: 0, pingIntervalMs: PING_INTERVAL_MS },
      heartbeatIntervalMs: 60_000,
      log,
    });
    const address = await eventually("the console server to listen", () => handler.consoleServer?.address);
    endpoint = { ...address, caPem: pki.ca.certPem };
  });

  after(async () => {
    for (const client of [first, second]) client?.ws.terminate();
    await handler?.stop();
    await handler?.done;
    const leftover = libvirt?.findDomainByName(DOMAIN);
    if (leftover) {
      if (leftover.isActive()) await leftover.destroy();
      await leftover.undefine();
      leftover.free();
    }
    await libvirt?.close();
    await cluster?.close();
    rmSync(`/var/log/libvirt/qemu/${DOMAIN}.log`, { force: true });
  });

  test("the console shows the guest's banner and answers a typed command", async () => {
    // Retry until the domain runs and libvirt gave its serial port a pty (409/500 until then).
    first = await eventually(
      "the console to open",
      () => openConsole(endpoint, path("console"), pki),
      BOOT_TIMEOUT_MS,
    );
    await first.transcript.waitFor(TEST_GUEST_BANNER, BOOT_TIMEOUT_MS);
    await first.transcript.waitFor("guest# ", 10_000);
    await typeLine(first.stream, "echo MARK-$((6*7))");
    await first.transcript.waitFor("MARK-42", 10_000);
  });

  test("only virt-api's certificate gets in", async () => {
    const anonymous = await openWebSocket(endpoint, path("console"), undefined);
    assert.equal(anonymous.kind, "failed", "no client certificate: the TLS handshake fails");
    const stranger = await openWebSocket(endpoint, path("console"), pki.stranger);
    assert.equal(stranger.kind === "refused" && stranger.status, 403);
    assert.equal(first.ws.readyState, first.ws.OPEN, "the refused clients took nothing over");
  });

  test("a second console takes over; the first is closed with 4001 and the reason", async () => {
    const firstClosed = closeOf(first.ws);
    const taking = await openConsole(endpoint, path("console"), pki);
    assert.ok(taking, "the second console opened");
    second = taking;
    assert.deepEqual(await firstClosed, { code: CONSOLE_TAKEN_OVER_CODE, reason: CONSOLE_TAKEN_OVER_REASON });
    await typeLine(second.stream, "echo TAKEN-$((40+2))");
    await second.transcript.waitFor("TAKEN-42", 10_000);
  });

  test("a burst of guest output (1 MB) arrives whole and in order", async () => {
    // The guest's 16550 UART under TCG moves 60–130 KB/s here: a larger burst only costs time.
    // Several MB with a stalled reader, both ways: console-server/websocket-bridge.test.ts.
    const lines = 140_000; // "1\r\n" … "140000\r\n": 1,008,895 bytes
    const received = collectUntil(second, "BURST-3", 120_000);
    await typeLine(second.stream, `echo BURST-$((1+1)); seq 1 ${lines}; echo BURST-$((2+1))`);
    const text = await received;
    const start = text.indexOf("BURST-2\r\n") + "BURST-2\r\n".length;
    const numbers = text.slice(start, text.lastIndexOf("BURST-3")).split("\r\n");
    assert.equal(numbers.pop(), "", "the burst ends with a line end");
    assert.equal(numbers.length, lines, "every line arrived");
    const firstWrong = numbers.findIndex((line, index) => line !== String(index + 1));
    assert.equal(firstWrong, -1, `line ${firstWrong + 1} is ${JSON.stringify(numbers[firstWrong])}`);
  });

  test("an idle console stays open while its pongs come back", async () => {
    let pings = 0;
    second.ws.on("ping", () => {
      pings += 1;
    });
    await new Promise((resolve) => setTimeout(resolve, PING_INTERVAL_MS * 8));
    assert.equal(second.ws.readyState, second.ws.OPEN);
    assert.ok(pings >= 3, `pinged ${pings} times in eight intervals`);
  });

  test("VNC: several viewers each get QEMU's RFB greeting; one that stops answering pings is cut", async () => {
    const resolvers: Array<(greeting: string) => void> = [];
    const greetings = [0, 1].map(() => new Promise<string>((resolve) => resolvers.push(resolve)));
    const greeted = (index: number) => (data: Buffer) => resolvers[index]?.(data.toString("latin1"));
    const [polite, silent] = (
      await Promise.all([
        openWebSocket(endpoint, path("vnc"), pki.virtApi, { onMessage: greeted(0) }),
        openWebSocket(endpoint, path("vnc"), pki.virtApi, { onMessage: greeted(1), autoPong: false }),
      ])
    ).map(opened) as [WebSocket, WebSocket];
    const silentClosed = closeOf(silent);
    for (const greeting of await Promise.all(greetings)) assert.match(greeting, /^RFB 003\.00\d\n/);
    const closed = await silentClosed;
    assert.equal(closed.code, 1006, "terminated without a close handshake");
    assert.equal(polite.readyState, polite.OPEN, "the viewer that answers pings stays");
    assert.equal(second.ws.readyState, second.ws.OPEN, "the console is unaffected");
    polite.close();
  });

  test("pause suspends the domain and the VMI reports Paused; unpause removes it", async () => {
    const pausedDomain = () => libvirt.findDomainByName(DOMAIN)?.state().state;
    const paused = await send(endpoint, "PUT", path("pause"), pki.virtApi);
    assert.equal(paused.status, 200, paused.body);
    assert.equal(pausedDomain(), DomainState.Paused);
    const whilePaused = await eventually("the Paused condition", async () => {
      const vmi = await getVmi();
      return vmi.status?.conditions?.some((c) => c.type === "Paused") ? vmi : undefined;
    });
    const condition = whilePaused.status?.conditions?.find((c) => c.type === "Paused");
    assert.equal(condition?.status, "True");
    assert.equal(condition?.reason, "PausedByUser");
    assert.equal(whilePaused.status?.phase, "Running", "KubeVirt's phase stays Running");

    const unpaused = await send(endpoint, "PUT", path("unpause"), pki.virtApi);
    assert.equal(unpaused.status, 200, unpaused.body);
    assert.equal(pausedDomain(), DomainState.Running);
    await eventually("the Paused condition to go", async () => {
      const vmi = await getVmi();
      return vmi.status?.conditions?.some((c) => c.type === "Paused") ? undefined : vmi;
    });
    const from = second.transcript.text.length;
    await typeLine(second.stream, "echo AWAKE-$((3*3))");
    await second.transcript.waitFor("AWAKE-9", 10_000, from);
  });
});
