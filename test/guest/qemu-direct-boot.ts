// Boots a guest with qemu-system-x86_64 directly (TCG, no libvirt), for tests: the serial console on the
// process's stdin/stdout and the human monitor on a unix socket.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { once } from "node:events";
import { connect } from "node:net";
import { join } from "node:path";

export interface QemuDisk {
  path: string;
  format: "qcow2" | "raw";
  /** "virtio" (virtio-blk) or "cdrom" (a SATA cdrom on q35's AHCI controller, read-only). */
  kind: "virtio" | "cdrom";
}

export interface QemuBootOptions {
  kernel: string;
  initrd: string;
  kernelArgs: string;
  disks?: readonly QemuDisk[];
  memoryMiB?: number;
  /**
   * A loopback port forwarded to the guest's port 22, over a virtio NIC on QEMU's user network (the
   * guest's DHCP gets it an address from QEMU). No NIC without it.
   */
  sshHostPort?: number;
  /** Holds the monitor socket. */
  workDir: string;
}

export interface QemuGuest {
  readonly pid: number;
  /** Everything the serial console printed so far. */
  output(): string;
  /** Resolves with the offset just past the first match at or after `from`; rejects after `timeoutMs`. */
  waitForOutput(pattern: string, timeoutMs: number, from?: number): Promise<number>;
  /** Types a line on the serial console. */
  typeLine(line: string): void;
  /** Runs a human-monitor command ("system_powerdown") and resolves with its reply. */
  monitor(command: string): Promise<string>;
  /** Resolves with QEMU's exit code; rejects after `timeoutMs`. */
  waitForExit(timeoutMs: number): Promise<number | null>;
  /** SIGKILLs QEMU if it still runs and waits until it is gone. */
  kill(): Promise<void>;
}

function driveArguments(disks: readonly QemuDisk[]): string[] {
  return disks.flatMap((disk, index) => {
    const drive = `file=${disk.path},format=${disk.format},if=none,id=drive${index}`;
    if (disk.kind === "virtio") return ["-drive", drive, "-device", `virtio-blk-pci,drive=drive${index}`];
    return [
      "-drive",
      `${drive},media=cdrom,readonly=on`,
      "-device",
      `ide-cd,drive=drive${index},bus=ide.${index}`,
    ];
  });
}

function qemuArguments(options: QemuBootOptions, monitorSocket: string): string[] {
  return [
    ...["-accel", "tcg", "-machine", "q35", "-m", String(options.memoryMiB ?? 256)],
    ...["-nodefaults", "-nographic", "-no-reboot", "-serial", "stdio"],
    ...["-monitor", `unix:${monitorSocket},server=on,wait=off`],
    ...["-kernel", options.kernel, "-initrd", options.initrd, "-append", options.kernelArgs],
    ...driveArguments(options.disks ?? []),
    ...nicArguments(options.sshHostPort),
  ];
}

function nicArguments(sshHostPort: number | undefined): string[] {
  if (sshHostPort === undefined) return [];
  return [
    ...["-netdev", `user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:${sshHostPort}-:22`],
    ...["-device", "virtio-net-pci,netdev=net0"],
  ];
}

/** The serial console's output so far, and waiting for text to appear in it. */
class ConsoleOutput {
  #text = "";
  #ended = false;
  readonly #listeners = new Set<() => void>();

  get text(): string {
    return this.#text;
  }

  append(chunk: string): void {
    this.#text += chunk;
    for (const listener of this.#listeners) listener();
  }

  end(): void {
    this.#ended = true;
    for (const listener of this.#listeners) listener();
  }

  waitFor(pattern: string, timeoutMs: number, from = 0): Promise<number> {
    return new Promise((resolve, reject) => {
      const fail = (why: string) => {
        finish();
        reject(new Error(`"${pattern}" ${why}; console so far:\n${this.#text.slice(-3000)}`));
      };
      const check = () => {
        const index = this.#text.indexOf(pattern, from);
        if (index >= 0) {
          finish();
          resolve(index + pattern.length);
        } else if (this.#ended) {
          fail("never appeared: QEMU exited");
        }
      };
      const timer = setTimeout(() => fail(`did not appear within ${timeoutMs} ms`), timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        this.#listeners.delete(check);
      };
      this.#listeners.add(check);
      check();
    });
  }
}

async function monitorCommand(socketPath: string, command: string): Promise<string> {
  const socket = connect(socketPath);
  let received = "";
  const prompts = (): number => received.split("(qemu) ").length - 1;
  const untilPrompts = (count: number) =>
    new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        received += chunk.toString();
        if (prompts() >= count) done(resolve);
      };
      const onError = (error: Error) =>
        done(() => reject(new Error(`QEMU monitor: ${error.message}`, { cause: error })));
      const done = (then: () => void) => {
        socket.off("data", onData).off("error", onError);
        then();
      };
      socket.on("data", onData).on("error", onError);
    });
  try {
    await untilPrompts(1);
    socket.write(`${command}\n`);
    await untilPrompts(2);
    // The monitor echoes the command (with line-editing escapes) on the line before its reply.
    const afterEcho = received.indexOf("\r\n", received.indexOf("(qemu) ")) + 2;
    return received.slice(afterEcho, received.lastIndexOf("(qemu) "));
  } finally {
    socket.destroy();
  }
}

async function waitForMonitorSocket(
  child: ChildProcessWithoutNullStreams,
  socketPath: string,
): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await monitorCommand(socketPath, "info status");
      return;
    } catch (error) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error("QEMU did not start", { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** Starts QEMU and resolves once its monitor answers (the guest is booting by then). */
export async function bootWithQemu(options: QemuBootOptions): Promise<QemuGuest> {
  const monitorSocket = join(options.workDir, "monitor.sock");
  const child = spawn("qemu-system-x86_64", qemuArguments(options, monitorSocket), { stdio: "pipe" });
  const serial = new ConsoleOutput();
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => serial.append(chunk.toString("latin1")));
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => {
      serial.end();
      resolve(code);
    });
  });
  await once(child, "spawn"); // rejects when the binary cannot be run
  try {
    await waitForMonitorSocket(child, monitorSocket);
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`qemu-system-x86_64 failed: ${stderr.trim()}`, { cause: error });
  }
  return {
    pid: child.pid ?? -1,
    output: () => serial.text,
    waitForOutput: (pattern, timeoutMs, from) => serial.waitFor(pattern, timeoutMs, from),
    typeLine: (line) => child.stdin.write(`${line}\r`),
    monitor: (command) => monitorCommand(monitorSocket, command),
    waitForExit: (timeoutMs) =>
      Promise.race([
        exited,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`QEMU still runs after ${timeoutMs} ms`)), timeoutMs).unref(),
        ),
      ]),
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
