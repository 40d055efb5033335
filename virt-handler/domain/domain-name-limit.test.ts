// api's MAX_DOMAIN_NAME_BYTES is libvirt's, measured: on qemu:///system a domain name of that many
// bytes defines, one more does not ("File name too long": libvirt writes <name>.xml.new). Admission
// refuses VMI and VM names whose "<namespace>_<name>" is longer. Skipped without qemu:///system.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { MAX_DOMAIN_NAME_BYTES } from "../../api/index.js";
import { domainToXml } from "../../libvirt/domain-xml/index.js";

const run = promisify(execFile);
const URI = "qemu:///system";

async function systemLibvirt(): Promise<boolean> {
  try {
    await run("virsh", ["-c", URI, "version"]);
    return true;
  } catch {
    return false;
  }
}

const skip = (await systemLibvirt())
  ? false
  : `${URI} is not reachable (npm run setup-host installs libvirt)`;

describe("the longest libvirt domain name", { skip }, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "domain-name-limit-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** Defines (and undefines again) a minimal domain with this name; the error's text when it fails. */
  async function define(name: string): Promise<string | undefined> {
    const file = join(dir, "domain.xml");
    const xml = domainToXml({
      type: "qemu",
      name,
      memory: { value: 64, unit: "MiB" },
      vcpu: { count: 1 },
      os: { type: "hvm", arch: "x86_64", machine: "q35" },
      devices: {},
    });
    await writeFile(file, xml);
    try {
      await run("virsh", ["-c", URI, "define", file]);
    } catch (error) {
      return String((error as { stderr?: unknown }).stderr ?? error);
    }
    await run("virsh", ["-c", URI, "undefine", name]);
    return undefined;
  }

  test(`${MAX_DOMAIN_NAME_BYTES} bytes define, one more does not`, async () => {
    const prefix = `kvts-limit-${process.pid}_`;
    const fits = prefix + "a".repeat(MAX_DOMAIN_NAME_BYTES - prefix.length);
    assert.equal(await define(fits), undefined);
    assert.match((await define(`${fits}a`)) ?? "defined", /File name too long/);
  });
});
