// The boot probe behind detectKvm: a host kernel booted under KVM by QEMU alone must print
// "Linux version" on its serial port within the timeout.
import { spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { KvmStatus } from "./kvm-detection.js";

export interface KvmBootProbeOptions {
  /** Default "/usr/bin/qemu-system-x86_64". */
  readonly qemuBinary?: string;
  /** The kernel to boot; default the first /boot/vmlinuz-*. */
  readonly kernel?: string;
  /** Default 10 s. */
  readonly timeoutMs?: number;
}

export async function kvmBootProbe(options: KvmBootProbeOptions = {}): Promise<KvmStatus> {
  const kernel = options.kernel ?? (await firstBootKernel());
  if (kernel === undefined) {
    return {
      usable: false,
      detail: "the CPU has vmx/svm, but there is no /boot/vmlinuz-* to verify KVM with",
    };
  }
  const timeoutMs = options.timeoutMs ?? 10_000;
  const printed = await bootsUnderKvm(options.qemuBinary ?? "/usr/bin/qemu-system-x86_64", kernel, timeoutMs);
  return printed
    ? { usable: true, detail: `${kernel} printed its banner under KVM` }
    : { usable: false, detail: `${kernel} printed nothing under KVM within ${timeoutMs} ms` };
}

async function firstBootKernel(): Promise<string | undefined> {
  const names = await readdir("/boot").catch(() => [] as string[]);
  const kernel = names.filter((name) => name.startsWith("vmlinuz-")).sort()[0];
  return kernel === undefined ? undefined : join("/boot", kernel);
}

function bootsUnderKvm(qemu: string, kernel: string, timeoutMs: number): Promise<boolean> {
  const args = ["-accel", "kvm", "-M", "pc", "-m", "128", "-nodefaults", "-no-user-config"];
  args.push("-display", "none", "-no-reboot", "-serial", "stdio");
  args.push("-kernel", kernel, "-append", "console=ttyS0 panic=-1");
  return new Promise((resolve) => {
    const child = spawn(qemu, args, { stdio: ["ignore", "pipe", "ignore"] });
    let output = "";
    const finish = (printed: boolean): void => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      resolve(printed);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("latin1");
      if (output.includes("Linux version")) finish(true);
    });
    child.on("error", () => finish(false));
    child.on("exit", () => finish(output.includes("Linux version")));
  });
}
