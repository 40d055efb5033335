// console and vnc through virt-api, against a fake virt-handler that takes only virt-api's
// client certificate: frames both ways, close codes and reasons passed on, backpressure, pings,
// and the refusals that happen before the upgrade.
import assert from "node:assert/strict";
import { once } from "node:events";
import { after, before, describe, test } from "node:test";
import type { WebSocket } from "ws";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { createVm, createVmi, subresourcePath, TEST_NAMESPACE } from "../testing/test-objects.js";
import { startVirtApiFixture, type VirtApiFixture } from "../testing/virt-api-fixture.js";

// Long enough that a loaded machine's event-loop lag, with megabytes queued in the kernel ahead of a
// ping, never looks like a dead peer (two missed pongs end a connection); production uses 15 s.
const PING_INTERVAL_MS = 1_000;

describe("virt-api: console and vnc streams", () => {
  let fixture: VirtApiFixture;
  const consolePath = subresourcePath("virtualmachineinstances", "console-vm", "console");

  before(async () => {
    fixture = await startVirtApiFixture({ pingIntervalMs: PING_INTERVAL_MS });
    await createVm(fixture.client, "console-vm", "Always");
    await createVmi(fixture.client, "console-vm", "Running");
  });
  after(() => fixture.close());

  const closed = async (socket: WebSocket) => {
    const [code, reason] = (await once(socket, "close")) as [number, Buffer];
    return { code, reason: reason.toString("utf8") };
  };

  test("frames go both ways as they came, with KubeVirt's subprotocol and virt-api's client certificate", async () => {
    const client = await fixture.stream(consolePath);
    try {
      assert.equal(client.protocol, "plain.kubevirt.io");
      const echoed = once(client, "message");
      client.send(Buffer.from("ls -l\r"));
      const [data, isBinary] = (await echoed) as [Buffer, boolean];
      assert.equal(isBinary, true);
      assert.equal(data.toString(), "ls -l\r");
      const handlerPath = `/v1/namespaces/${TEST_NAMESPACE}/virtualmachineinstances/console-vm/console`;
      const seen = fixture.handler.requests.filter((request) => request.path === handlerPath);
      assert.ok(seen.length > 0, "the handler was asked for the console");
      assert.ok(seen.every((request) => request.verifiedClient === "virt-api"));
    } finally {
      client.close();
    }
  });

  test("vnc goes to the handler's vnc stream", async () => {
    const client = await fixture.stream(subresourcePath("virtualmachineinstances", "console-vm", "vnc"));
    client.close();
    assert.ok(fixture.handler.requests.some((request) => request.path.endsWith("/console-vm/vnc")));
  });

  test("a console taken over (4001 and why) reaches the client with the same code and reason", async () => {
    const handlerSide = fixture.handler.nextStream();
    const client = await fixture.stream(consolePath);
    const { socket } = await handlerSide;
    const clientClosed = closed(client);
    socket.close(4001, "the console was taken over by another connection");
    assert.deepEqual(await clientClosed, {
      code: 4001,
      reason: "the console was taken over by another connection",
    });
  });

  test("the client's close reaches the handler", async () => {
    const handlerSide = fixture.handler.nextStream();
    const client = await fixture.stream(consolePath);
    const { socket } = await handlerSide;
    const handlerClosed = closed(socket);
    client.close(1000, "Ctrl+] pressed");
    assert.deepEqual(await handlerClosed, { code: 1000, reason: "Ctrl+] pressed" });
  });

  test("a client that stops reading stops virt-api reading the handler, and then gets every byte in order", async () => {
    const frameBytes = 64 * 1024;
    const frames = 256; // 16 MiB
    const handlerSide = fixture.handler.nextStream();
    const client = await fixture.stream(consolePath);
    const { socket } = await handlerSide;
    client.pause();
    for (let index = 0; index < frames; index++) socket.send(frameOf(index, frameBytes));
    // Wait until the handler's backlog stops shrinking: virt-api has stopped taking more.
    let previous = -1;
    const stalled = await eventually("the handler's backlog to settle", async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const now = socket.bufferedAmount;
      const settled = now === previous;
      previous = now;
      return settled ? now : undefined;
    });
    assert.ok(
      stalled > 2 * 1024 * 1024,
      `virt-api stopped reading the handler (${stalled} bytes still at the handler)`,
    );

    const received: Buffer[] = [];
    const all = new Promise<void>((resolve, reject) => {
      let bytes = 0;
      client.on("message", (data: Buffer) => {
        received.push(data);
        bytes += data.length;
        if (bytes >= frames * frameBytes) resolve();
      });
      // Fail, rather than wait for ever, if the stream ends before every byte came.
      client.once("close", (code: number) =>
        reject(new Error(`the stream closed (${code}) after ${bytes} bytes`)),
      );
    });
    client.resume();
    await all;
    const joined = Buffer.concat(received);
    assert.equal(joined.length, frames * frameBytes);
    for (let index = 0; index < frames; index++) {
      assert.equal(joined.readUInt32BE(index * frameBytes), index, `frame ${index} in its place`);
    }
    client.close();
  });

  test("virt-api pings the client, and an idle stream stays open", async () => {
    const client = await fixture.stream(consolePath);
    try {
      await once(client, "ping");
      await new Promise((resolve) => setTimeout(resolve, PING_INTERVAL_MS * 5));
      assert.equal(client.readyState, client.OPEN);
      const echoed = once(client, "message");
      client.send(Buffer.from("still here"));
      assert.equal(((await echoed) as [Buffer])[0].toString(), "still here");
    } finally {
      client.close();
    }
  });

  test("refusals are HTTP Statuses before the upgrade: no VMI 404, not running 400, no RBAC 403", async () => {
    const refusal = (path: string, identity = {}) =>
      fixture.stream(path, identity).then(
        (socket) => {
          socket.close();
          throw new Error("the upgrade was accepted");
        },
        (error: { code: number; json: { message: string } }) => error,
      );
    const missing = await refusal(subresourcePath("virtualmachineinstances", "nothing-here", "console"));
    assert.equal(missing.code, 404);
    assert.equal(missing.json.message, 'virtualmachineinstance.kubevirt.io "nothing-here" not found');

    await createVm(fixture.client, "pending-vm", "Always");
    await createVmi(fixture.client, "pending-vm", "Scheduling");
    const pending = await refusal(subresourcePath("virtualmachineinstances", "pending-vm", "console"));
    assert.equal(pending.code, 400);
    assert.equal(pending.json.message, "VMI is not running");

    const forbidden = await refusal(consolePath, { user: "mallory", groups: ["system:authenticated"] });
    assert.equal(forbidden.code, 403);
    assert.match(
      forbidden.json.message,
      /User "mallory" cannot get resource "virtualmachineinstances\/console"/,
    );
  });
});

/** Frame `index`: its number first, then a byte pattern of its own. */
function frameOf(index: number, size: number): Buffer {
  const frame = Buffer.alloc(size, index % 251);
  frame.writeUInt32BE(index, 0);
  return frame;
}
