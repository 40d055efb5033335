// The manifests in examples/ are valid for api/ (shape and KubeVirt's semantic rules), convert to a
// domain, and libvirt accepts the XML (`virsh define --validate` on the test driver: libvirt's RelaxNG
// schema plus its own checks). So is a VMI that uses every option the converter knows.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import {
  type VirtualMachineInstance,
  VirtualMachineInstanceKind,
  VirtualMachineKind,
  validateVirtualMachine,
  validateVirtualMachineInstance,
} from "../../api/index.js";
import { domainToXml } from "../../libvirt/domain-xml/index.js";
import { convertVmi, domainNameOf } from "./convert-vmi.js";
import {
  loadExample,
  preparedWithoutFiles,
  vmiFromVirtualMachine,
  vmiWithSpec,
} from "./testing/test-vmis.js";

const run = promisify(execFile);
const EXAMPLES = ["vm-tiny.yaml", "vmi-ephemeral.yaml", "vm-cirros-shaped.yaml", "vm-debian.yaml"];

async function exampleVmi(fileName: string): Promise<VirtualMachineInstance> {
  const manifest = await loadExample(fileName);
  const kind = (manifest as { kind?: unknown }).kind;
  if (kind === "VirtualMachine") {
    assert.ok(VirtualMachineKind.validator.check(manifest), `${fileName} has a VirtualMachine's shape`);
    assert.deepEqual(validateVirtualMachine(manifest), [], `${fileName} is a valid VirtualMachine`);
    return vmiFromVirtualMachine(manifest, { namespace: "examples" });
  }
  assert.equal(kind, "VirtualMachineInstance");
  assert.ok(VirtualMachineInstanceKind.validator.check(manifest), `${fileName} has a VMI's shape`);
  assert.deepEqual(
    validateVirtualMachineInstance(manifest),
    [],
    `${fileName} is a valid VirtualMachineInstance`,
  );
  const name = manifest.metadata?.name ?? "vmi";
  return vmiWithSpec(manifest.spec, { name, namespace: "examples", uid: randomUUID() });
}

function everyOption(): VirtualMachineInstance {
  return vmiWithSpec(
    {
      hostname: "everything",
      domain: {
        cpu: { sockets: 1, cores: 2, threads: 1, model: "qemu64", features: [{ name: "x2apic" }] },
        memory: { guest: "256Mi" },
        resources: { requests: { memory: "256Mi" } },
        firmware: { serial: "SERIAL,1", bootloader: { bios: { useSerial: true } } },
        clock: {
          timezone: "Europe/Paris",
          timer: { rtc: { tickPolicy: "catchup" }, hpet: { present: false } },
        },
        devices: {
          disks: [
            { name: "root", disk: { bus: "virtio" }, bootOrder: 1, serial: "ROOT", cache: "writethrough" },
            { name: "scratch", disk: { bus: "scsi" } },
            { name: "data", disk: { bus: "sata", readonly: true } },
            { name: "iso", cdrom: { bus: "sata" } },
            { name: "cidata", disk: { bus: "virtio" } },
          ],
          interfaces: [
            { name: "default", masquerade: {}, macAddress: "02:00:00:00:00:01", bootOrder: 2 },
            { name: "second", bridge: {}, model: "e1000e", state: "down" },
          ],
          inputs: [{ name: "tablet", type: "tablet", bus: "usb" }],
          rng: {},
        },
      },
      networks: [
        { name: "default", pod: {} },
        { name: "second", pod: {} },
      ],
      volumes: [
        { name: "root", containerDisk: { image: "localhost/guest" } },
        { name: "scratch", emptyDisk: { capacity: "1Gi" } },
        { name: "data", hostDisk: { path: "/srv/data.img", type: "Disk" } },
        { name: "iso", containerDisk: { image: "localhost/iso" } },
        { name: "cidata", cloudInitNoCloud: { userData: "#cloud-config\n" } },
      ],
    },
    { name: "everything", namespace: "examples", uid: randomUUID() },
  );
}

describe("examples/ and libvirt's acceptance of converted domains", () => {
  let workDir: string;
  const xmlFiles: string[] = [];

  before(async () => {
    workDir = await mkdtemp(join(tmpdir(), "converter-examples-"));
  });
  after(() => rm(workDir, { recursive: true, force: true }));

  for (const fileName of EXAMPLES) {
    test(`${fileName} validates with api/ and converts`, async () => {
      const vmi = await exampleVmi(fileName);
      const domain = convertVmi(vmi, preparedWithoutFiles(vmi), {
        domainName: domainNameOf({ metadata: vmi.metadata ?? {} }),
        emulation: true,
        vncSocketPath: join(workDir, `${fileName}.vnc`),
      });
      assert.equal(domain.name, `examples_${vmi.metadata?.name}`);
      assert.ok((domain.devices.disks ?? []).length >= 2, "the example's disks are there");
      const file = join(workDir, `${fileName}.xml`);
      await writeFile(file, domainToXml(domain));
      xmlFiles.push(file);
    });
  }

  test("a VMI using every option the converter knows converts", async () => {
    const vmi = everyOption();
    const domain = convertVmi(vmi, preparedWithoutFiles(vmi), {
      domainName: "examples_everything",
      emulation: true,
      vncSocketPath: join(workDir, "everything.vnc"),
      serialLogPath: join(workDir, "everything.log"),
    });
    const file = join(workDir, "everything.xml");
    await writeFile(file, domainToXml(domain));
    xmlFiles.push(file);
  });

  test("libvirt accepts every converted domain (virsh define --validate on test:///default)", async (t) => {
    const virsh = await run("virsh", ["--version"]).catch(() => undefined);
    if (virsh === undefined) return t.skip("virsh is not installed (npm run setup-host installs libvirt)");
    assert.equal(xmlFiles.length, EXAMPLES.length + 1);
    // One virsh process: the test driver's domains live only as long as it.
    const commands = xmlFiles.map((file) => `define --validate ${file}`).join(" ; ");
    const { stdout } = await run("virsh", ["-c", "test:///default", commands]);
    for (const name of [
      "examples_vm-tiny",
      "examples_vmi-ephemeral",
      "examples_vm-cirros",
      "examples_everything",
    ]) {
      assert.match(stdout, new RegExp(`Domain '${name}' defined`));
    }
  });
});
