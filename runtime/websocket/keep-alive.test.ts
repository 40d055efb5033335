// The keepalive against a local WebSocket server: a peer that answers pings keeps the socket open
// for many intervals; one that stops answering gets it terminated after two unanswered pings;
// while we do not read the socket (backpressure), nobody is pinged or terminated.
import assert from "node:assert/strict";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { after, describe, test } from "node:test";
import { WebSocket, WebSocketServer } from "ws";
import { keepWebSocketAlive } from "./keep-alive.js";

const INTERVAL_MS = 50;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe("keepWebSocketAlive", () => {
  const servers: WebSocketServer[] = [];
  after(() => {
    for (const server of servers) server.close();
  });

  async function clientOf(autoPong: boolean): Promise<{ client: WebSocket; pings: () => number }> {
    const server = new WebSocketServer({ port: 0, host: "127.0.0.1", autoPong });
    servers.push(server);
    await once(server, "listening");
    let pings = 0;
    server.on("connection", (peer) => peer.on("ping", () => (pings += 1)));
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    await once(client, "open");
    return { client, pings: () => pings };
  }

  test("a peer that answers keeps the socket open, pinged every interval", async () => {
    const { client, pings } = await clientOf(true);
    keepWebSocketAlive(client, INTERVAL_MS);
    await sleep(INTERVAL_MS * 8);
    assert.equal(client.readyState, WebSocket.OPEN);
    assert.ok(pings() >= 3, `pinged ${pings()} times`);
    client.close();
  });

  test("a peer that stops answering has the socket terminated (1006)", async () => {
    const { client } = await clientOf(false);
    keepWebSocketAlive(client, INTERVAL_MS);
    const [code] = (await once(client, "close")) as [number];
    assert.equal(code, 1006);
  });

  test("while we do not read the socket, it is neither pinged nor terminated", async () => {
    const { client, pings } = await clientOf(false);
    client.pause();
    keepWebSocketAlive(client, INTERVAL_MS);
    await sleep(INTERVAL_MS * 6);
    assert.equal(client.readyState, WebSocket.OPEN);
    assert.equal(pings(), 0);
    client.resume();
    const [code] = (await once(client, "close")) as [number];
    assert.equal(code, 1006);
  });
});
