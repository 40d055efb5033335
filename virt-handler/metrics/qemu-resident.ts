// Resident memory of a domain's QEMU process: libvirt's qemu driver writes each running domain's
// pid to <pid dir>/<domain name>.pid (/run/libvirt/qemu for qemu:///system); /proc says the rest.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export function qemuResidentBytes(pidDir: string): (domainName: string) => number | undefined {
  return (domainName) => {
    try {
      const pid = readFileSync(join(pidDir, `${domainName}.pid`), "utf8").trim();
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const kib = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
      return kib === undefined ? undefined : Number(kib) * 1024;
    } catch {
      return undefined; // not running, or not a qemu:///system domain
    }
  };
}

/** For drivers without QEMU processes (test:///default). */
export const noResidentBytes = (): number | undefined => undefined;
