// virtctl port-forward as a user runs it (the compiled virtctl, a kubeconfig, the dev API server
// proxying subresources.kubevirt.io to virt-api), to a TCP echo server on 127.0.0.1 that stands in
// for the guest: --stdio carries stdin and stdout; listeners forward each connection; ssh runs
// its ProxyCommand, which is this same virtctl.
import assert from "node:assert/strict";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { once } from "node:events";
import { connect, createServer, type Server } from "node:net";
import { after, before, describe, test } from "node:test";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { createVm, createVmi, placeGuest } from "../../virt-api/testing/test-objects.js";
import { startVirtctlCluster, type VirtctlCluster } from "../testing/virtctl-cluster.js";

describe("virtctl port-forward through the API server's aggregation to virt-api", () => {
  let cluster: VirtctlCluster;
  let guest: Server;
  let guestPort = 0;
  const children = new Set<ChildProcessWithoutNullStreams>();

  before(async () => {
    cluster = await startVirtctlCluster();
    // The "guest": a greeting, then an echo in upper case; "quit" makes it say bye and close.
    guest = createServer((socket) => {
      socket.write("hello from the guest\n");
      socket.on("data", (chunk) => {
        const text = chunk.toString();
        if (text.endsWith("quit")) socket.end(`${text.slice(0, -4).toUpperCase()}bye\n`);
        else socket.write(text.toUpperCase());
      });
      socket.on("error", () => undefined);
    });
    guest.listen(0, "127.0.0.1");
    await once(guest, "listening");
    guestPort = (guest.address() as { port: number }).port;
    await createVm(cluster.fixture.client, "web", "Always");
    await createVmi(cluster.fixture.client, "web", "Running");
    await placeGuest(cluster.fixture.client, "web");
  });
  after(async () => {
    for (const child of children) child.kill("SIGKILL");
    guest?.close();
    await cluster?.close();
  });

  const start = (args: string[]) => {
    const child = cluster.spawn(args);
    children.add(child);
    child.once("exit", () => children.delete(child));
    return child;
  };
  const collected = (stream: NodeJS.ReadableStream) => {
    let text = "";
    stream.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    return () => text;
  };

  test("--stdio: stdin goes to the guest's port and its answer to stdout, which carries nothing else", async () => {
    const child = start(["port-forward", "--stdio=true", "vmi/web", String(guestPort)]);
    const stdout = collected(child.stdout);
    const stderr = collected(child.stderr);
    await eventually("the guest's greeting on stdout", async () =>
      stdout().includes("hello") ? true : undefined,
    );
    child.stdin.write("echo me\n");
    await eventually("the echo", async () => (stdout().includes("ECHO ME") ? true : undefined));
    // stdin's end is not the tunnel's (a WebSocket cannot half-close): the guest still answers,
    // then closes, and virtctl ends.
    child.stdin.end("quit");
    const [code] = (await once(child, "exit")) as [number];
    assert.equal(stdout(), "hello from the guest\nECHO ME\nbye\n");
    assert.equal(code, 0, stderr());
  });

  test("listeners: each local connection is a tunnel of its own; a VM's name works as its VMI's", async () => {
    const child = start(["port-forward", "vm/web", `0:${guestPort}`]);
    const stderr = collected(child.stderr);
    const localPort = await eventually("virtctl to listen", async () => {
      const match = /forwarding tcp 127\.0\.0\.1:(\d+) to (\d+)/.exec(stderr());
      return match ? Number(match[1]) : undefined;
    });
    // The VM has not said it created its VMI: KubeVirt's 409, on one line, and virtctl keeps listening.
    const refused = await exchange(localPort, "x");
    assert.equal(refused, "");
    await eventually("the refusal on stderr", async () =>
      /VMI is not started/.test(stderr()) ? true : undefined,
    );
    await cluster.fixture.client
      .resource((await import("../../virt-api/kinds.js")).vmKind)
      .mergePatch(
        { namespace: "default", name: "web" },
        { status: { created: true } },
        { subresource: "status" },
      );
    const [first, second] = await Promise.all([exchange(localPort, "one"), exchange(localPort, "two")]);
    assert.equal(first, "hello from the guest\nONEbye\n");
    assert.equal(second, "hello from the guest\nTWObye\n");
    child.kill("SIGINT");
    const [code] = (await once(child, "exit")) as [number];
    assert.equal(code, 0);
  });

  test("a refused tunnel is one line on stderr with the server's reason", async () => {
    const result = await cluster.run(["port-forward", "--stdio", "vmi/nothing-here", "22"]);
    assert.equal(result.code, 1);
    assert.equal(result.stdout, "");
    assert.equal(result.stderr.trimEnd().split("\n").length, 1, result.stderr);
    assert.match(result.stderr, /^error: .*nothing-here.*not found/);
  });
});

/** Connects, sends `text` and "quit", half-closes, and reads until the other side closes. */
function exchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString();
    });
    socket.once("connect", () => {
      // After the greeting: the guest answers in order.
      setTimeout(() => socket.end(`${text}quit`), 200);
    });
    socket.once("close", () => resolve(received));
    socket.once("error", reject);
  });
}
