// The WebSocket bridge's backpressure with fast streams and slow peers (a guest's serial port is
// too slow to fill any buffer: console-qemu.test.ts shows a real console end to end). Megabytes
// flow both ways; while one side does not read, the other stops being read, and every byte
// arrives in order once it reads again.
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Duplex } from "node:stream";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { pino } from "pino";
import { WebSocket, WebSocketServer } from "ws";
import { bridgeWebSocket } from "./websocket-bridge.js";

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
const WATER_MARKS = { highWaterMark: 256 * 1024, lowWaterMark: 64 * 1024 };
const CHUNK = 64 * 1024;

/** Byte `i` of a test stream: a pattern in which a lost, repeated or swapped chunk shows. */
function patternByte(index: number): number {
  return (index * 7 + Math.floor(index / 65_521)) & 0xff;
}

function patternChunk(offset: number, length: number): Buffer {
  const chunk = Buffer.alloc(length);
  for (let i = 0; i < length; i += 1) chunk[i] = patternByte(offset + i);
  return chunk;
}

function firstMismatch(received: Buffer): number {
  for (let i = 0; i < received.length; i += 1) if (received[i] !== patternByte(i)) return i;
  return -1;
}

/**
 * The stream behind the WebSocket: produces `total` pattern bytes as fast as it is read, then ends
 * (0: stays silent and open); takes writes.
 */
class FakeConsole extends Duplex {
  produced = 0;
  written: Buffer[] = [];
  writtenBytes = 0;
  maxWritableLength = 0;
  /** While set, writes wait for it (a guest that does not read its console). */
  stall: Promise<void> | undefined;

  constructor(readonly total: number) {
    super({ highWaterMark: CHUNK });
  }

  override _read(): void {
    if (this.total === 0) return; // a console that stays silent
    if (this.produced >= this.total) {
      this.push(null);
      return;
    }
    const length = Math.min(CHUNK, this.total - this.produced);
    const chunk = patternChunk(this.produced, length);
    this.produced += length;
    this.push(chunk);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.maxWritableLength = Math.max(this.maxWritableLength, this.writableLength);
    this.written.push(chunk);
    this.writtenBytes += chunk.length;
    if (this.stall) void this.stall.then(() => done());
    else done();
  }
}

describe("WebSocket bridge backpressure", () => {
  let server: Server;
  let url: string;
  let nextConsole: FakeConsole;
  const websockets = new WebSocketServer({ noServer: true, perMessageDeflate: false });

  before(async () => {
    server = createServer();
    server.on("upgrade", (request, socket, head) => {
      websockets.handleUpgrade(request, socket, head, (ws) =>
        bridgeWebSocket(ws, nextConsole, { ...WATER_MARKS, log, endReason: "the console ended" }),
      );
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  after(async () => {
    for (const ws of websockets.clients) ws.terminate(); // upgraded: the HTTP server no longer tracks them
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test("8 MB to a reader that stalls: production stops, then every byte arrives in order", async () => {
    const total = 8 * 1024 * 1024;
    nextConsole = new FakeConsole(total);
    const fake = nextConsole;
    const ws = new WebSocket(url, { perMessageDeflate: false });
    const received: Buffer[] = [];
    ws.on("message", (data: Buffer) => received.push(data));
    await once(ws, "open");
    ws.pause(); // the reader stalls: the kernel's socket buffers fill, then the bridge's
    await sleep(300);
    const producedWhileStalled = fake.produced;
    await sleep(300);
    assert.equal(fake.produced, producedWhileStalled, "production stopped while the reader stalled");
    assert.ok(producedWhileStalled < total, `stopped at ${producedWhileStalled} of ${total} bytes`);
    const closed = once(ws, "close");
    ws.resume();
    const [code, reason] = (await closed) as [number, Buffer];
    assert.deepEqual([code, reason.toString()], [1000, "the console ended"]);
    const all = Buffer.concat(received);
    assert.equal(all.length, total);
    assert.equal(firstMismatch(all), -1, "in order, nothing lost or repeated");
  });

  test("8 MB from a writer to a console that stalls: reading the socket stops, then all is written", async () => {
    const total = 8 * 1024 * 1024;
    let release = (): void => {};
    nextConsole = new FakeConsole(0);
    const fake = nextConsole;
    fake.stall = new Promise((resolve) => {
      release = resolve;
    });
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.on("message", () => {});
    await once(ws, "open");
    for (let offset = 0; offset < total; offset += CHUNK) ws.send(patternChunk(offset, CHUNK));
    await sleep(500);
    assert.ok(ws.bufferedAmount > 0, "the client could not send everything: the bridge stopped reading");
    assert.ok(
      fake.maxWritableLength <= WATER_MARKS.highWaterMark + 4 * CHUNK,
      `the console's write buffer stayed bounded (${fake.maxWritableLength} bytes)`,
    );
    fake.stall = undefined;
    release();
    while (fake.writtenBytes < total) await sleep(20);
    assert.equal(firstMismatch(Buffer.concat(fake.written)), -1, "in order, nothing lost or repeated");
    ws.close();
  });
});
