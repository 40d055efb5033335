// portforward through virt-api (in-process, reached as the API server's aggregation layer reaches
// it), to real TCP and UDP servers on 127.0.0.1 standing in for a guest: the VMI's status and its
// launcher pod say the guest is at 127.0.0.1. Bytes both ways, the guest's close reaching the
// caller, a VM's portforward going to its VMI, and every refusal before the upgrade.
import assert from "node:assert/strict";
import { createSocket, type Socket as UdpSocket } from "node:dgram";
import { once } from "node:events";
import { createServer, type Server, type Socket } from "node:net";
import { after, before, describe, test } from "node:test";
import type { WebSocket } from "ws";
import { vmKind } from "../kinds.js";
import { createVm, createVmi, placeGuest, subresourcePath, TEST_NAMESPACE } from "../testing/test-objects.js";
import { startVirtApiFixture, type VirtApiFixture } from "../testing/virt-api-fixture.js";

const GUEST_IP = "127.0.0.1";

describe("virt-api: portforward", () => {
  let fixture: VirtApiFixture;
  let tcpGuest: Server;
  let tcpPort = 0;
  let udpGuest: UdpSocket;
  let udpPort = 0;
  const guestSockets = new Set<Socket>();
  const path = (
    name: string,
    rest: string,
    resource: "virtualmachineinstances" | "virtualmachines" = "virtualmachineinstances",
  ) => subresourcePath(resource, name, `portforward${rest}`);

  before(async () => {
    fixture = await startVirtApiFixture({ pingIntervalMs: 1_000 });
    // The "guest": echoes, and on "bye" answers "ciao" and closes its side.
    tcpGuest = createServer((socket) => {
      guestSockets.add(socket);
      socket.on("data", (chunk) => {
        if (chunk.toString() === "bye") socket.end("ciao");
        else socket.write(chunk);
      });
      socket.on("error", () => undefined);
    });
    tcpGuest.listen(0, GUEST_IP);
    await once(tcpGuest, "listening");
    tcpPort = (tcpGuest.address() as { port: number }).port;
    udpGuest = createSocket("udp4");
    udpGuest.on("message", (datagram, from) =>
      udpGuest.send(Buffer.concat([Buffer.from("udp:"), datagram]), from.port, from.address),
    );
    udpGuest.bind(0, GUEST_IP);
    await once(udpGuest, "listening");
    udpPort = udpGuest.address().port;

    await createVm(fixture.client, "web", "Always");
    await createVmi(fixture.client, "web", "Running");
    await placeGuest(fixture.client, "web");
  });
  after(async () => {
    for (const socket of guestSockets) socket.destroy();
    tcpGuest?.close();
    udpGuest?.close();
    await fixture?.close();
  });

  const refusal = (target: string, identity = {}) =>
    fixture.stream(target, identity).then(
      (socket) => {
        socket.close();
        throw new Error(`the upgrade of ${target} was accepted`);
      },
      (error: { code: number; json: { message: string } }) => ({
        code: error.code,
        message: error.json?.message,
      }),
    );
  const nextMessage = async (socket: WebSocket) => {
    const [data, isBinary] = (await once(socket, "message")) as [Buffer, boolean];
    return { text: data.toString(), isBinary };
  };

  test("TCP: bytes go both ways as binary frames, and the guest's close reaches the caller as 1000", async () => {
    const socket = await fixture.stream(path("web", `/${tcpPort}`));
    assert.equal(socket.protocol, "plain.kubevirt.io");
    const echoed = nextMessage(socket);
    socket.send(Buffer.from("hello guest"));
    assert.deepEqual(await echoed, { text: "hello guest", isBinary: true });
    const answer = nextMessage(socket);
    const closed = once(socket, "close");
    socket.send(Buffer.from("bye"));
    assert.equal((await answer).text, "ciao");
    const [code] = (await closed) as [number];
    assert.equal(code, 1000);
  });

  test("the caller's close ends the guest's connection", async () => {
    const before = guestSockets.size;
    const socket = await fixture.stream(path("web", `/${tcpPort}/tcp`));
    socket.send(Buffer.from("ping"));
    await nextMessage(socket);
    const guestSide = [...guestSockets].at(-1);
    assert.ok(guestSide && guestSockets.size === before + 1, "the guest got one connection");
    const ended = once(guestSide, "end");
    socket.close(1000, "done");
    await ended;
  });

  test("a VM's portforward goes to its VMI once the VM says it was created", async () => {
    const vms = fixture.client.resource(vmKind);
    const notStarted = await refusal(path("web", `/${tcpPort}`, "virtualmachines"));
    assert.deepEqual(notStarted, {
      code: 409,
      message: 'Operation cannot be fulfilled on virtualmachine.kubevirt.io "web": VMI is not started',
    });
    await vms.mergePatch(
      { namespace: TEST_NAMESPACE, name: "web" },
      { status: { created: true } },
      { subresource: "status" },
    );
    const socket = await fixture.stream(path("web", `/${tcpPort}`, "virtualmachines"));
    const echoed = nextMessage(socket);
    socket.send(Buffer.from("via the VM"));
    assert.equal((await echoed).text, "via the VM");
    socket.close();
    assert.equal((await refusal(path("no-such-vm", "/80", "virtualmachines"))).code, 404);
  });

  test("UDP: one frame is one datagram, both ways", async () => {
    const socket = await fixture.stream(path("web", `/${udpPort}/udp`));
    const answer = nextMessage(socket);
    socket.send(Buffer.from("datagram"));
    assert.deepEqual(await answer, { text: "udp:datagram", isBinary: true });
    socket.close();
  });

  test("refusals with KubeVirt's codes and messages, before the upgrade", async () => {
    assert.deepEqual(await refusal(path("web", "")), { code: 400, message: "port must not be empty" });
    assert.deepEqual(await refusal(path("web", "/")), { code: 400, message: "port must not be empty" });
    assert.equal((await refusal(path("web", "/http"))).code, 400);
    assert.equal((await refusal(path("web", "/70000"))).code, 400);
    assert.deepEqual(await refusal(path("web", "/80/sctp")), {
      code: 400,
      message: 'protocol must be tcp or udp, not "sctp"',
    });
    assert.equal((await refusal(path("nothing-here", "/80"))).code, 404);

    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, GUEST_IP, () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const refused = await refusal(path("web", `/${closedPort}`));
    assert.equal(refused.code, 500);
    assert.match(
      refused.message,
      new RegExp(
        `^Internal error occurred: dialing VM: dial tcp 127\\.0\\.0\\.1:${closedPort}: .*ECONNREFUSED`,
      ),
    );

    const forbidden = await refusal(path("web", `/${tcpPort}`), {
      user: "mallory",
      groups: ["system:authenticated"],
    });
    assert.equal(forbidden.code, 403);
    assert.match(
      forbidden.message,
      /User "mallory" cannot get resource "virtualmachineinstances\/portforward"/,
    );

    await createVm(fixture.client, "paused", "Always");
    await createVmi(fixture.client, "paused", "Running", {
      conditions: [{ type: "Paused", status: "True" }],
    });
    await placeGuest(fixture.client, "paused");
    assert.deepEqual(await refusal(path("paused", `/${tcpPort}`)), {
      code: 409,
      message: 'Operation cannot be fulfilled on virtualmachineinstance.kubevirt.io "paused": VMI is paused',
    });

    await createVm(fixture.client, "pending", "Always");
    await createVmi(fixture.client, "pending", "Scheduled");
    assert.deepEqual(await refusal(path("pending", `/${tcpPort}`)), {
      code: 400,
      message: "VMI is not running",
    });

    await createVm(fixture.client, "no-nic", "Always");
    await createVmi(fixture.client, "no-nic", "Running");
    await placeGuest(fixture.client, "no-nic", { vmiIp: null });
    assert.deepEqual(await refusal(path("no-nic", `/${tcpPort}`)), {
      code: 400,
      message: "no network interfaces are present",
    });
  });

  test("an address its launcher pod does not have is refused: a forged VMI status reaches nothing", async () => {
    await createVm(fixture.client, "forged", "Always");
    await createVmi(fixture.client, "forged", "Running");
    // The VMI says 127.0.0.1 (virt-api's own loopback), its pod is elsewhere.
    await placeGuest(fixture.client, "forged", { podIp: "10.99.0.7" });
    const forged = await refusal(path("forged", `/${tcpPort}`));
    assert.equal(forged.code, 400);
    assert.match(forged.message, /127\.0\.0\.1 is not an IP of its running virt-launcher pod/);
  });

  test("a plain GET is a 400, and discovery lists portforward on VMIs and VMs", async () => {
    const plain = await fixture.call("GET", path("web", "/80"));
    assert.equal(plain.code, 400);
    assert.match(plain.body, /WebSocket subresource/);
    const discovery = await fixture.call("GET", "/apis/subresources.kubevirt.io/v1");
    const names = (discovery.json as { resources: { name: string }[] }).resources.map((entry) => entry.name);
    assert.ok(names.includes("virtualmachineinstances/portforward"), names.join(", "));
    assert.ok(names.includes("virtualmachines/portforward"), names.join(", "));
  });
});
