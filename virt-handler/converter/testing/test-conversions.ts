// Test support for the table-driven converter tests: a spec with 128Mi, conversion with the XML round
// trip checked every time, and the expected refusals.
import assert from "node:assert/strict";
import type { VirtualMachineInstanceSpec } from "../../../api/index.js";
import { type DomainDefinition, domainFromXml, domainToXml } from "../../../libvirt/domain-xml/index.js";
import type { ConversionOptions } from "../configurator.js";
import { VmiConversionError } from "../conversion-error.js";
import { convertVmi } from "../convert-vmi.js";
import { preparedWithoutFiles, vmiWithSpec } from "./test-vmis.js";

export const UID = "6a0c6b1e-0c2f-4d4e-9a55-1b2c3d4e5f60";
export const OPTIONS: ConversionOptions = {
  domainName: "testns_testvm",
  emulation: true,
  vncSocketPath: "/run/kubevirt-ts/testvm/vnc.sock",
};

export type Domain = VirtualMachineInstanceSpec["domain"];
export type Devices = Domain["devices"];

/** A spec with 128Mi and the given domain parts (devices merged in). */
export function spec(
  domain: Partial<Domain> = {},
  rest: Partial<VirtualMachineInstanceSpec> = {},
): VirtualMachineInstanceSpec {
  return {
    ...rest,
    domain: {
      resources: { requests: { memory: "128Mi" } },
      ...domain,
      devices: { ...(domain.devices ?? {}) },
    },
  };
}

export function convert(
  vmiSpec: VirtualMachineInstanceSpec,
  options: Partial<ConversionOptions> = {},
): DomainDefinition {
  const vmi = vmiWithSpec(vmiSpec, { uid: UID });
  const domain = convertVmi(vmi, preparedWithoutFiles(vmi), { ...OPTIONS, ...options });
  assert.deepEqual(domainFromXml(domainToXml(domain)), domain, "the domain survives the XML round trip");
  return domain;
}

export function refuses(
  vmiSpec: VirtualMachineInstanceSpec,
  reason: string,
  message: RegExp,
  options: Partial<ConversionOptions> = {},
): void {
  const vmi = vmiWithSpec(vmiSpec, { uid: UID });
  assert.throws(
    () => convertVmi(vmi, preparedWithoutFiles(vmi), { ...OPTIONS, ...options }),
    (error: unknown) => {
      assert.ok(error instanceof VmiConversionError, `a VmiConversionError, got ${String(error)}`);
      assert.equal(error.reason, reason);
      assert.match(error.message, message);
      return true;
    },
  );
}

/** Disks on containerDisk volumes named like the disks. */
export function withDisks(disks: NonNullable<Devices["disks"]>): VirtualMachineInstanceSpec {
  return spec(
    { devices: { disks } },
    { volumes: disks.map((disk) => ({ name: disk.name, containerDisk: { image: "localhost/guest" } })) },
  );
}
