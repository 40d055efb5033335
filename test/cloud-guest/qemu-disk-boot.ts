// Boots a disk the way a PC does (SeaBIOS, then the disk's own boot loader) with qemu-system-x86_64 under
// TCG, for tests: every disk on virtio-blk (the cloud kernel has no AHCI), the serial console on stdout,
// optionally the guest agent's virtio-serial port on a unix socket and SSH forwarded from loopback.
import { spawn } from "node:child_process";
import { once } from "node:events";

export interface BootDisk {
  path: string;
  format: "qcow2" | "raw";
  readOnly?: boolean;
}

export interface DiskBootOptions {
  /** The first one is booted. */
  disks: readonly BootDisk[];
  memoryMiB?: number;
  /** A loopback port forwarded to the guest's port 22 over a virtio NIC on QEMU's user network. */
  sshHostPort?: number;
  /** A unix socket QEMU listens on for the virtio-serial port org.qemu.guest_agent.0. */
  guestAgentSocket?: string;
}

export interface DiskBootedGuest {
  readonly pid: number;
  /** Everything the serial console printed so far. */
  output(): string;
  /** Resolves once `pattern` has appeared on the console; rejects after `timeoutMs` or when QEMU exits. */
  waitForOutput(pattern: string, timeoutMs: number): Promise<void>;
  /** SIGKILLs QEMU if it still runs and waits until it is gone. */
  kill(): Promise<void>;
}

function diskArguments(disks: readonly BootDisk[]): string[] {
  return disks.flatMap((disk, index) => {
    const readOnly = disk.readOnly ? ",readonly=on" : "";
    const bootIndex = index === 0 ? ",bootindex=0" : "";
    return [
      ...["-drive", `file=${disk.path},format=${disk.format},if=none,id=drive${index}${readOnly}`],
      ...["-device", `virtio-blk-pci,drive=drive${index}${bootIndex}`],
    ];
  });
}

function deviceArguments(options: DiskBootOptions): string[] {
  const args: string[] = [];
  if (options.sshHostPort !== undefined) {
    args.push("-netdev", `user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:${options.sshHostPort}-:22`);
    args.push("-device", "virtio-net-pci,netdev=net0");
  }
  if (options.guestAgentSocket !== undefined) {
    args.push("-chardev", `socket,id=qga0,path=${options.guestAgentSocket},server=on,wait=off`);
    args.push(
      "-device",
      "virtio-serial-pci",
      "-device",
      "virtserialport,chardev=qga0,name=org.qemu.guest_agent.0",
    );
  }
  return args;
}

export async function bootDiskWithQemu(options: DiskBootOptions): Promise<DiskBootedGuest> {
  const args = [
    ...["-accel", "tcg", "-machine", "q35", "-m", String(options.memoryMiB ?? 1024)],
    ...["-nodefaults", "-nographic", "-no-reboot", "-serial", "stdio"],
    ...diskArguments(options.disks),
    ...deviceArguments(options),
  ];
  const child = spawn("qemu-system-x86_64", args, { stdio: ["ignore", "pipe", "pipe"] });
  let serial = "";
  let stderr = "";
  let exited = false;
  const listeners = new Set<() => void>();
  child.stdout.on("data", (chunk: Buffer) => {
    serial += chunk.toString("latin1");
    for (const listener of listeners) listener();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exit = new Promise<void>((resolve) => {
    child.once("exit", () => {
      exited = true;
      for (const listener of listeners) listener();
      resolve();
    });
  });
  await once(child, "spawn"); // rejects when the binary cannot be run
  const waitForOutput = (pattern: string, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const finish = (error?: Error) => {
        clearTimeout(timer);
        listeners.delete(check);
        if (error) reject(error);
        else resolve();
      };
      const fail = (why: string) =>
        finish(new Error(`"${pattern}" ${why}; ${stderr.trim()}\nconsole so far:\n${serial.slice(-3000)}`));
      const check = () => {
        if (serial.includes(pattern)) finish();
        else if (exited) fail("never appeared: QEMU exited");
      };
      const timer = setTimeout(() => fail(`did not appear within ${timeoutMs} ms`), timeoutMs);
      listeners.add(check);
      check();
    });
  return {
    pid: child.pid ?? -1,
    output: () => serial,
    waitForOutput,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exit;
    },
  };
}
