// Removing a test domain whatever state it is in, and listing what libvirt still holds of one.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { Connection, ErrorCode, LibvirtError } from "../../../libvirt/index.js";

/** libvirt writes each domain's QEMU log here (stdio_handler "file", see scripts/setup-host.mjs). */
const QEMU_LOG_DIR = "/var/log/libvirt/qemu";

/** The files libvirt keeps about a domain: persistent config, runtime state and pid, QEMU's log. */
function libvirtFilesOf(name: string): string[] {
  return [
    `/etc/libvirt/qemu/${name}.xml`,
    `/run/libvirt/qemu/${name}.xml`,
    `/run/libvirt/qemu/${name}.pid`,
    join(QEMU_LOG_DIR, `${name}.log`),
  ];
}

/** libvirt's QEMU log of a domain; it outlives the domain, so tests remove it once the domain is gone. */
export async function removeQemuLog(name: string): Promise<void> {
  await rm(join(QEMU_LOG_DIR, `${name}.log`), { force: true });
}

/**
 * Destroys (if running) and undefines the domain `name`, then removes its QEMU log. It uses a connection
 * of its own, so it works whatever happened to the test's connection; a domain that is already gone is
 * not an error.
 */
export async function removeTestDomain(uri: string, name: string): Promise<void> {
  const connection = await Connection.open(uri, { reconnect: false });
  try {
    const domain = connection.findDomainByName(name);
    if (domain !== null) {
      try {
        if (domain.isActive()) await domain.destroy();
        await domain.undefine().catch((err: unknown) => {
          if (!LibvirtError.is(err, ErrorCode.NoDomain)) throw err; // a transient domain went with destroy
        });
      } finally {
        domain.free();
      }
    }
  } finally {
    await connection.close();
  }
  await removeQemuLog(name);
}

/** What is left of the domain `name`: the domain itself (if listed) and libvirt's files about it. */
export function leftoversOf(connection: Connection, name: string): string[] {
  const found: string[] = [];
  for (const domain of connection.listAllDomains()) {
    if (domain.name === name) found.push(`domain ${name} (${domain.uuid})`);
    domain.free();
  }
  return [...found, ...libvirtFilesOf(name).filter((file) => existsSync(file))];
}
