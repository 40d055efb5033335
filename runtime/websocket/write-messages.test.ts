// writeMessagesTo against a local WebSocket server: every message reaches the output in order;
// while the output refuses more the socket is not read; released, the output keeps no listener.
import assert from "node:assert/strict";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { after, describe, test } from "node:test";
import { WebSocket, WebSocketServer } from "ws";
import { writeMessagesTo } from "./write-messages.js";

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** An output that takes a chunk only when the test says so (`release`). */
function slowOutput(): { output: Writable; received: Buffer[]; release: () => void } {
  const received: Buffer[] = [];
  let pending: (() => void) | undefined;
  const output = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, done) {
      received.push(chunk);
      pending = done;
    },
  });
  return {
    output,
    received,
    release: () => {
      const done = pending;
      pending = undefined;
      done?.();
    },
  };
}

describe("writeMessagesTo", () => {
  const servers: WebSocketServer[] = [];
  after(() => {
    for (const server of servers) server.close();
  });

  async function connected(): Promise<{ client: WebSocket; peer: WebSocket }> {
    const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    servers.push(server);
    await once(server, "listening");
    const peerConnected = once(server, "connection") as Promise<[WebSocket]>;
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    await once(client, "open");
    const [peer] = await peerConnected;
    return { client, peer };
  }

  test("a full output pauses the socket until it drains; bytes arrive in order", async () => {
    const { client, peer } = await connected();
    const { output, received, release } = slowOutput();
    writeMessagesTo(client, output);
    for (const text of ["one", "two", "three"]) peer.send(Buffer.from(text), { binary: true });
    await sleep(100);
    assert.equal(client.isPaused, true);
    assert.deepEqual(received.map(String), ["one"]);
    for (let turn = 0; turn < 10 && received.length < 3; turn++) {
      release();
      await sleep(50);
    }
    release();
    assert.deepEqual(received.map(String), ["one", "two", "three"]);
    await sleep(50);
    assert.equal(client.isPaused, false);
    client.close();
  });

  test("released, the output keeps no listener for its drain", async () => {
    const { client, peer } = await connected();
    const { output, received } = slowOutput();
    const release = writeMessagesTo(client, output);
    peer.send(Buffer.from("fills it"));
    await sleep(100);
    assert.deepEqual(received.map(String), ["fills it"]);
    assert.equal(output.listenerCount("drain"), 1);
    release();
    assert.equal(output.listenerCount("drain"), 0);
    client.close();
  });
});
