// Test support for the converter's tests: VMIs as virt-controller would hand them over (from a VM's
// template, defaulted), the example manifests, and prepared volumes that need no files.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import {
  defaultVirtualMachine,
  defaultVirtualMachineInstance,
  type VirtualMachine,
  type VirtualMachineInstance,
  type VirtualMachineInstanceSpec,
  withVolumeDisks,
} from "../../../api/index.js";
import type { PreparedDisk, PreparedVolumes } from "../../storage/prepare-volumes.js";

/** The repository root: the nearest directory above this module with a package.json. */
export function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("no package.json above the converter's tests");
    dir = parent;
  }
  return dir;
}

/** A manifest from examples/ as plain data. */
export async function loadExample(fileName: string): Promise<unknown> {
  return parse(await readFile(join(repositoryRoot(), "examples", fileName), "utf8")) as unknown;
}

export interface VmiIdentityOptions {
  namespace?: string;
  uid?: string;
  name?: string;
}

/** The VMI a VM's template gives, the way virt-controller makes it (a disk per unused volume, defaults). */
export function vmiFromVirtualMachine(
  vm: VirtualMachine,
  identity: VmiIdentityOptions = {},
): VirtualMachineInstance {
  const defaulted = defaultVirtualMachine(vm);
  const spec = defaulted.spec.template.spec;
  if (spec === undefined) throw new Error("the VM has no template spec");
  const name = identity.name ?? defaulted.metadata?.name ?? "vm";
  return defaultVirtualMachineInstance({
    apiVersion: "kubevirt.io/v1",
    kind: "VirtualMachineInstance",
    metadata: {
      name,
      namespace: identity.namespace ?? "default",
      uid: identity.uid ?? randomUUID(),
      labels: { ...(defaulted.spec.template.metadata?.labels ?? {}) },
    },
    spec: withVolumeDisks(spec),
  });
}

/** A defaulted VMI around a spec (for table-driven converter tests). */
export function vmiWithSpec(
  spec: VirtualMachineInstanceSpec,
  identity: VmiIdentityOptions = {},
): VirtualMachineInstance {
  return defaultVirtualMachineInstance({
    metadata: {
      name: identity.name ?? "testvm",
      namespace: identity.namespace ?? "testns",
      uid: identity.uid ?? "6a0c6b1e-0c2f-4d4e-9a55-1b2c3d4e5f60",
    },
    spec,
  });
}

/** Prepared volumes as prepareVolumes would report them, under /vms/<name>/, without making files. */
export function preparedWithoutFiles(vmi: VirtualMachineInstance): PreparedVolumes {
  const dir = `/vms/${vmi.metadata?.name ?? "vm"}`;
  const disks = new Map<string, PreparedDisk>();
  for (const volume of vmi.spec.volumes ?? []) {
    const iso = volume.cloudInitNoCloud !== undefined || volume.cloudInitConfigDrive !== undefined;
    const host = volume.hostDisk?.path;
    disks.set(volume.name, {
      volumeName: volume.name,
      path: host ?? `${dir}/${volume.name}.${iso ? "iso" : "qcow2"}`,
      format: iso || host ? "raw" : "qcow2",
      readOnly: iso,
      device: iso ? "cdrom" : "disk",
    });
  }
  const container = vmi.spec.domain.firmware?.kernelBoot?.container;
  if (container === undefined) return { disks };
  const kernelBoot: NonNullable<PreparedVolumes["kernelBoot"]> = { kernel: `${dir}/kernel` };
  if (container.initrdPath !== undefined) kernelBoot.initrd = `${dir}/initrd`;
  const cmdline = vmi.spec.domain.firmware?.kernelBoot?.kernelArgs;
  if (cmdline !== undefined) kernelBoot.cmdline = cmdline;
  return { disks, kernelBoot };
}
