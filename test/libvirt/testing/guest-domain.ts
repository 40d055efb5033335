// The test guest (test/guest) as a libvirt domain, built with our domain model: direct kernel boot from
// a qcow2 overlay of the guest's root disk, an optional NoCloud cidata ISO on a SATA cdrom (where
// KubeVirt puts it), the serial console on a pty, ACPI on so that the power button works.
import { type Disk, type DomainDefinition, metadataElement } from "../../../libvirt/domain-xml/index.js";
import type { TestGuest } from "../../guest/ensure-test-guest.js";

/** The namespace of the metadata element the tests tag their domains with. */
export const TEST_METADATA_NAMESPACE = "http://kubevirt-ts.io/test/libvirt/1";
export const TEST_METADATA_ELEMENT = "test";

export interface TestGuestDomainOptions {
  name: string;
  guest: TestGuest;
  /** A qcow2 overlay of `guest.disk` (never the shared image itself). */
  rootDisk: string;
  /** A NoCloud ISO (volume label "cidata"), attached as a read-only SATA cdrom. */
  cidataIso?: string;
  /** Stored in the domain's metadata, as our components store a VMI's uid. */
  runId: string;
  memoryMiB?: number;
}

function disks(options: TestGuestDomainOptions): Disk[] {
  const root: Disk = {
    type: "file",
    device: "disk",
    driver: { name: "qemu", type: "qcow2" },
    source: options.rootDisk,
    target: { dev: "vda", bus: "virtio" },
  };
  if (options.cidataIso === undefined) return [root];
  const cidata: Disk = {
    type: "file",
    device: "cdrom",
    driver: { name: "qemu", type: "raw" },
    source: options.cidataIso,
    target: { dev: "sda", bus: "sata" },
    readonly: true,
  };
  return [root, cidata];
}

export function testGuestDomain(options: TestGuestDomainOptions): DomainDefinition {
  return {
    type: "qemu", // TCG: KVM does not work on the project's machines (shared/reference/libvirt-here.md §4)
    name: options.name,
    metadata: [
      metadataElement(TEST_METADATA_NAMESPACE, TEST_METADATA_ELEMENT, [
        { name: "run", children: [options.runId] },
      ]),
    ],
    memory: { value: options.memoryMiB ?? 256, unit: "MiB" },
    vcpu: { count: 1 },
    os: {
      type: "hvm",
      arch: "x86_64",
      machine: "q35",
      kernel: options.guest.kernel,
      initrd: options.guest.initrd,
      cmdline: options.guest.diskKernelArgs,
    },
    features: { acpi: true, apic: true }, // without <acpi/> there is no power button to press
    onPoweroff: "destroy",
    onReboot: "destroy",
    onCrash: "destroy",
    devices: {
      disks: disks(options),
      serials: [{ type: "pty", target: { port: 0 } }],
      consoles: [{ type: "pty", target: { type: "serial", port: 0 } }],
      memballoon: { model: "none" }, // the guest has no balloon driver
    },
  };
}
