// virtctl console and vnc end to end: the compiled virtctl as a child process, through the dev API
// server's aggregation, virt-api in-process, and a fake virt-handler (it takes only virt-api's
// client certificate) that echoes console bytes or is driven by the test. The terminal tests run
// virtctl in a real pseudo-terminal (util-linux `script`) and compare `stty -a` before and after.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { WebSocket } from "ws";
import { vmiKind } from "../../virt-api/kinds.js";
import type { HandlerStream } from "../../virt-api/testing/fake-handler.js";
import { createVm, createVmi, TEST_NAMESPACE } from "../../virt-api/testing/test-objects.js";
import { CollectedOutput, exitOf } from "../testing/child-output.js";
import { startVirtctlCluster, VIRTCTL_MAIN, type VirtctlCluster } from "../testing/virtctl-cluster.js";

const ESCAPE = Buffer.from([0x1d]);
const connected = (name: string) => `Successfully connected to ${name} console. The escape sequence is ^]`;

describe("virtctl console and vnc", () => {
  let cluster: VirtctlCluster;

  before(async () => {
    cluster = await startVirtctlCluster();
    for (const name of ["pipe-vm", "pty-vm", "vnc-vm", "takeover-vm", "restart-vm", "stopping-vm"]) {
      await createVm(cluster.fixture.client, name, "Always");
      await createVmi(cluster.fixture.client, name, "Running");
    }
  });
  after(() => cluster?.close());

  /** virtctl console with piped stdio. */
  function consoleOnPipes(name: string, extra: string[] = []) {
    const child = cluster.spawn(["console", name, ...extra]);
    return { child, stdout: new CollectedOutput(child.stdout), stderr: new CollectedOutput(child.stderr) };
  }

  test("bytes typed on a pipe come back from the guest on stdout; Ctrl+] ends it with status 0", async () => {
    const { child, stdout, stderr } = consoleOnPipes("pipe-vm");
    await stderr.waitFor(connected("pipe-vm"));
    child.stdin.write("echo hello\r");
    await stdout.waitFor("echo hello\r");
    child.stdin.write(Buffer.concat([Buffer.from("last"), ESCAPE, Buffer.from("never sent")]));
    assert.deepEqual(await exitOf(child), { code: 0, signal: null });
    assert.equal(stdout.text, "echo hello\rlast");
  });

  test("a console taken over by another connection (4001) prints why and exits 1", async () => {
    const handlerSide = cluster.fixture.handler.nextStream();
    const { child, stderr } = consoleOnPipes("takeover-vm");
    const { socket } = await handlerSide;
    await stderr.waitFor(connected("takeover-vm"));
    socket.close(4001, "the console was taken over by another connection");
    assert.deepEqual(await exitOf(child), { code: 1, signal: null });
    assert.match(stderr.text, /\nerror: the console was taken over by another connection\n$/);
  });

  test("when the VM restarts, or the connection drops, virtctl waits for the VMI and reconnects", async () => {
    const { handler, client } = cluster.fixture;
    const firstSide = handler.nextStream();
    const { child, stdout, stderr } = consoleOnPipes("restart-vm", ["--timeout", "1"]);
    const first = await firstSide;
    await stderr.waitFor(connected("restart-vm"));
    first.socket.send(Buffer.from("first boot\r\n"));
    await stdout.waitFor("first boot\r\n");

    // The VM restarts: a new VMI replaces the old one, and the old console ends.
    const secondSide = handler.nextStream();
    await client.resource(vmiKind).delete({ namespace: TEST_NAMESPACE, name: "restart-vm" });
    await createVmi(client, "restart-vm", "Running");
    first.socket.close(1000, "the domain stopped");
    const second = await secondSide;
    await stderr.waitFor("Reconnected to restart-vm console.");
    assert.match(
      stderr.text,
      /The console closed: VM restart-vm restarted; waiting up to 1 min for it to run/,
    );
    second.socket.send(Buffer.from("second boot\r\n"));
    await stdout.waitFor("second boot\r\n");

    // The same VMI still runs, but the connection was lost (virt-handler restarted, say).
    const thirdSide = handler.nextStream();
    second.socket.close(1011, "virt-handler is restarting");
    const third = await thirdSide;
    echo(third);
    await stderr.waitFor(
      /The console connection was lost \(code 1011: virt-handler is restarting\); reconnecting\.\n.*Reconnected/s,
    );
    child.stdin.write("still here\r");
    await stdout.waitFor("still here\r");
    child.stdin.write(ESCAPE);
    assert.deepEqual(await exitOf(child), { code: 0, signal: null });
  });

  test("a console that closes while its VMI is being deleted waits for the VM's next VMI", async () => {
    const { handler, client } = cluster.fixture;
    const vmis = client.resource(vmiKind);
    const ref = { namespace: TEST_NAMESPACE, name: "stopping-vm" };
    const firstSide = handler.nextStream();
    const { child, stderr } = consoleOnPipes("stopping-vm", ["--timeout", "1"]);
    const first = await firstSide;
    await stderr.waitFor(connected("stopping-vm"));
    // A restart as virtctl can meet it: the old VMI still Running, but already being deleted.
    await vmis.mergePatch(ref, { metadata: { finalizers: ["test.kubevirt.io/hold"] } });
    await vmis.delete(ref);
    first.socket.close(1000, "the domain stopped");
    await stderr.waitFor(/The console closed: VM stopping-vm is stopping; waiting up to 1 min/);
    const secondSide = handler.nextStream();
    await vmis.mergePatch(ref, { metadata: { finalizers: null } });
    await createVmi(client, "stopping-vm", "Running");
    const second = await secondSide;
    echo(second);
    await stderr.waitFor("Reconnected to stopping-vm console.");
    child.stdin.write(ESCAPE);
    assert.deepEqual(await exitOf(child), { code: 0, signal: null });
  });

  test("a VMI that does not run within --timeout is an error that says so", async () => {
    await createVm(cluster.fixture.client, "slow-vm", "Always");
    await createVmi(cluster.fixture.client, "slow-vm", "Scheduling");
    const result = await cluster.run(["console", "slow-vm", "--timeout", "0.02"]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^error: VMI slow-vm is not running after 0\.02 min \(phase Scheduling\)/);
  });

  /**
   * virtctl console in a pseudo-terminal, `stty -a` printed before and after it in the same
   * session; `drive` acts once virtctl is connected.
   */
  async function consoleInPty(
    name: string,
    drive: (session: {
      input: NodeJS.WritableStream;
      output: CollectedOutput;
      pid: number;
      side: HandlerStream;
    }) => Promise<void>,
  ) {
    const handlerSide = cluster.fixture.handler.nextStream();
    const virtctl = `exec '${process.execPath}' '${VIRTCTL_MAIN}' --kubeconfig '${cluster.kubeconfigPath}' console ${name}`;
    const script = `stty -a; echo STTY-END; sh -c 'echo PID=$$; ${virtctl.replaceAll("'", '"')}'; echo EXIT=$?; stty -a; echo STTY-END`;
    const { KUBECONFIG: _ignored, ...env } = process.env;
    const child = spawn("script", ["-qfec", script, "/dev/null"], { stdio: "pipe", env });
    const output = new CollectedOutput(child.stdout);
    try {
      const side = await handlerSide;
      await output.waitFor(connected(name));
      const pid = Number(/PID=(\d+)/.exec(output.text)?.[1]);
      await drive({ input: child.stdin, output, pid, side });
      await output.waitFor(/EXIT=\d+\r\n[\s\S]*STTY-END/);
      assert.deepEqual(await exitOf(child), { code: 0, signal: null });
    } finally {
      child.stdin.end();
      if (child.exitCode === null) child.kill("SIGKILL");
    }
    const match = /^([\s\S]*?)STTY-END\r\n([\s\S]*)EXIT=(\d+)\r\n([\s\S]*?)STTY-END/.exec(output.text);
    assert.ok(match, `the session's output: ${JSON.stringify(output.text)}`);
    return { before: match[1] ?? "", during: match[2] ?? "", exit: Number(match[3]), after: match[4] ?? "" };
  }

  test("in a terminal: raw mode (keys go to the guest, no local echo, Ctrl+C included), Ctrl+] exits 0, terminal restored", async () => {
    const received: Buffer[] = [];
    const session = await consoleInPty("pty-vm", async ({ input, output, side }) => {
      // The guest answers in capitals: a local echo would show the lowercase.
      side.socket.on("message", (data: Buffer) => {
        received.push(data);
        side.socket.send(Buffer.from(data.toString("latin1").toUpperCase(), "latin1"));
      });
      input.write("hello-pty\x03");
      await output.waitFor("HELLO-PTY");
      input.write(ESCAPE);
    });
    assert.equal(session.exit, 0);
    assert.doesNotMatch(session.during, /hello-pty/, "no local echo: the terminal was raw");
    assert.equal(Buffer.concat(received).toString("latin1"), "hello-pty\x03", "Ctrl+C went to the guest");
    assert.equal(session.after, session.before, "stty -a is the same after virtctl as before");
    assert.match(session.after, /(^|\s)icanon(\s|$)/);
    assert.match(session.after, /(^|\s)echo(\s|$)/);
  });

  test("in a terminal: SIGTERM, SIGHUP and a takeover (4001) end virtctl with the terminal restored", async () => {
    // Node resets the terminal by itself on SIGTERM, not on SIGHUP: that one is virtctl's doing.
    for (const [signal, status] of [
      ["SIGTERM", 143],
      ["SIGHUP", 129],
    ] as const) {
      const ended = await consoleInPty("pty-vm", async ({ pid }) => {
        process.kill(pid, signal);
      });
      assert.equal(ended.exit, status, signal);
      assert.equal(ended.after, ended.before, `stty -a after ${signal}`);
    }

    const takenOver = await consoleInPty("pty-vm", async ({ side }) => {
      side.socket.close(4001, "the console was taken over by another connection");
    });
    assert.equal(takenOver.exit, 1);
    assert.match(takenOver.during, /error: the console was taken over by another connection/);
    assert.equal(takenOver.after, takenOver.before);
  });

  test("vnc --proxy-only prints the port as KubeVirt does and pipes each TCP connection to the VMI's vnc", async () => {
    const child = cluster.spawn(["vnc", "vnc-vm", "--proxy-only"]);
    const stdout = new CollectedOutput(child.stdout);
    try {
      const printed = await stdout.waitFor("}\n");
      assert.match(printed, /^\{"port":\d+\}\n$/);
      const { port } = JSON.parse(printed) as { port: number };
      for (const round of [1, 2]) {
        const handlerSide = cluster.fixture.handler.nextStream();
        const tcp = connect(port, "127.0.0.1");
        const fromVnc = new CollectedOutput(tcp);
        const { socket } = await handlerSide;
        // The server speaks first (RFB's greeting), as soon as the stream is open.
        socket.send(Buffer.from("RFB 003.008\n"));
        await fromVnc.waitFor("RFB 003.008\n");
        const reply = once(socket, "message");
        tcp.write(`RFB 003.008\n${round}`);
        assert.equal(((await reply) as [Buffer])[0].toString(), `RFB 003.008\n${round}`);
        const closed = once(socket, "close");
        tcp.end();
        await closed;
      }
      const vncRequests = cluster.fixture.handler.requests.filter((request) =>
        request.path.endsWith("/vnc-vm/vnc"),
      );
      assert.equal(vncRequests.length, 2, "one vnc stream per TCP connection");
      assert.ok(vncRequests.every((request) => request.verifiedClient === "virt-api"));
    } finally {
      child.kill("SIGINT");
    }
    assert.deepEqual(await exitOf(child), { code: 0, signal: null });
  });

  test("vnc starts the VNC viewer found on PATH, pointed at its port, and ends with it; without one it says where to connect", async () => {
    const bin = await mkdtemp(join(tmpdir(), "virtctl-viewer-"));
    try {
      const argsFile = join(bin, "args");
      await writeFile(join(bin, "vncviewer"), `#!/bin/sh\necho "$@" > '${argsFile}'\nexit 3\n`, {
        mode: 0o755,
      });
      const withViewer = await cluster.run(["vnc", "vnc-vm"], { env: { PATH: bin } });
      assert.equal(withViewer.code, 3, withViewer.stderr);
      assert.match(await readFile(argsFile, "utf8"), /^127\.0\.0\.1::\d+\n$/);

      const child = cluster.spawn(["vnc", "vnc-vm"], { env: { PATH: join(bin, "empty") } });
      const stderr = new CollectedOutput(child.stderr);
      await stderr.waitFor(
        /^No VNC viewer found on PATH \(remote-viewer, vncviewer\): point yours at 127\.0\.0\.1:\d+ \(vnc:\/\/127\.0\.0\.1:\d+\); Ctrl\+C stops the proxy\.\n$/,
      );
      child.kill("SIGINT");
      assert.deepEqual(await exitOf(child), { code: 0, signal: null });
    } finally {
      await rm(bin, { recursive: true, force: true });
    }
  });
});

function echo(side: HandlerStream): void {
  const socket: WebSocket = side.socket;
  socket.on("message", (data: Buffer, isBinary: boolean) => socket.send(data, { binary: isBinary }));
}
