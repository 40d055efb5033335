// Test support: what libvirt itself makes of a domain's XML, on the daemon-less test:///default
// driver (`npm test` runs setup-host first, which installs virsh with libvirt-clients).
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import type { DomainDefinition } from "../domain-types.js";
import { domainToXml } from "../format-domain.js";

const run = promisify(execFile);

/**
 * Defines the domain (its XML written into `dir`) and returns libvirt's XML for it. `validate`
 * checks it against libvirt's RelaxNG schema first. One virsh process, so both commands share the
 * test driver's in-memory state.
 */
export async function defineAndDump(
  dir: string,
  domain: DomainDefinition,
  options: { validate: boolean },
): Promise<string> {
  const file = join(dir, `${domain.name}.xml`);
  await writeFile(file, domainToXml(domain));
  const define = options.validate ? `define --validate ${file}` : `define ${file}`;
  const { stdout } = await run("virsh", ["-c", "test:///default", `${define}; dumpxml ${domain.name}`]);
  return stdout.slice(stdout.indexOf("<domain"));
}
