// Whether KVM really runs guests on this node. `/dev/kvm` existing is not enough (on the project's
// machines it exists, but the CPU lacks vmx/svm and only kvm_pvm is loaded, which runs no ordinary
// guest), so, as scripts/setup-host.mjs does: no device or no vmx/svm means no KVM, and with both a
// real kernel must print its banner under KVM (the boot probe) before KVM counts.
import { access, readFile } from "node:fs/promises";

export interface KvmStatus {
  readonly usable: boolean;
  /** Why, in words for logs and for the reason of a VMI that cannot run. */
  readonly detail: string;
}

export interface KvmDetectionOptions {
  /** Default "/dev/kvm". */
  readonly devicePath?: string;
  /** Default "/proc/cpuinfo". */
  readonly cpuinfoPath?: string;
  /** Boots a kernel under KVM; resolves whether it printed its banner. Without one, vmx/svm is trusted. */
  readonly bootProbe?: () => Promise<KvmStatus>;
}

export async function detectKvm(options: KvmDetectionOptions = {}): Promise<KvmStatus> {
  const device = options.devicePath ?? "/dev/kvm";
  try {
    await access(device);
  } catch {
    return { usable: false, detail: `there is no ${device}` };
  }
  const flags = await cpuFlags(options.cpuinfoPath ?? "/proc/cpuinfo");
  if (!flags.has("vmx") && !flags.has("svm")) {
    return { usable: false, detail: `the CPU has no vmx/svm (${device} exists regardless)` };
  }
  if (options.bootProbe === undefined) return { usable: true, detail: "the CPU has vmx/svm" };
  return options.bootProbe();
}

async function cpuFlags(path: string): Promise<Set<string>> {
  const text = await readFile(path, "utf8").catch(() => "");
  const line = /^flags\s*:(.*)$/m.exec(text)?.[1] ?? "";
  return new Set(line.split(/\s+/).filter(Boolean));
}
