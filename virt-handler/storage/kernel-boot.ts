// kernelBoot: the kernel and initrd come from a container image (KubeVirt's kernelBoot.container), found
// by the paths the VMI gives or, failing those, by the image's manifest; the command line is the VMI's
// kernelArgs or, when the VMI gives none, the one the image suggests.
import { join } from "node:path";
import type { VirtualMachineInstance } from "../../api/index.js";
import {
  type ContainerDiskImage,
  type ContainerDiskSource,
  hostPathInImage,
} from "../container-disk/index.js";
import { VmiConversionError } from "../converter/conversion-error.js";
import { fileExists, pinImageFile } from "./disk-files.js";

type KernelBootContainer = NonNullable<
  NonNullable<NonNullable<VirtualMachineInstance["spec"]["domain"]["firmware"]>["kernelBoot"]>["container"]
>;

export interface PreparedKernelBoot {
  kernel: string;
  initrd?: string;
  cmdline?: string;
}

/**
 * A file of the image: when the VMI names kernelPath or initrdPath it gets exactly what it names (as in
 * KubeVirt, where either may be left out); when it names neither, the files the image's manifest names.
 */
function imageFile(
  container: KernelBootContainer,
  resolved: ContainerDiskImage,
  what: "kernel" | "initrd",
): string | undefined {
  const explicit = container.kernelPath !== undefined || container.initrdPath !== undefined;
  if (!explicit) return resolved[what];
  const pathInImage = what === "kernel" ? container.kernelPath : container.initrdPath;
  if (pathInImage === undefined) return undefined;
  if (resolved.root === undefined) {
    throw new VmiConversionError(
      "InvalidImage",
      `kernelBoot: ${container.image} cannot look up ${what} path ${pathInImage}`,
    );
  }
  return hostPathInImage(container.image, resolved.root, pathInImage);
}

async function existing(file: string | undefined, what: string, image: string): Promise<string | undefined> {
  if (file === undefined) return undefined;
  if (!(await fileExists(file)))
    throw new VmiConversionError("InvalidImage", `kernelBoot: ${image} has no ${what} at ${file}`);
  return file;
}

export async function prepareKernelBoot(
  vmi: VirtualMachineInstance,
  options: { vmDir: string; images: ContainerDiskSource },
): Promise<PreparedKernelBoot | undefined> {
  const kernelBoot = vmi.spec.domain.firmware?.kernelBoot;
  if (kernelBoot === undefined) return undefined;
  const container = kernelBoot.container;
  if (container === undefined) {
    if (kernelBoot.kernelArgs === undefined) return undefined;
    throw new VmiConversionError(
      "InvalidSpec",
      "kernelBoot.kernelArgs needs kernelBoot.container with the kernel",
    );
  }
  const resolved = await options.images.resolve(container.image);
  const kernel = await existing(imageFile(container, resolved, "kernel"), "kernel", container.image);
  if (kernel === undefined) {
    throw new VmiConversionError(
      "InvalidImage",
      `kernelBoot: ${container.image} has no kernel (set kernelPath)`,
    );
  }
  const initrd = await existing(imageFile(container, resolved, "initrd"), "initrd", container.image);
  const prepared: PreparedKernelBoot = { kernel: await pinImageFile(kernel, join(options.vmDir, "kernel")) };
  if (initrd !== undefined) prepared.initrd = await pinImageFile(initrd, join(options.vmDir, "initrd"));
  const cmdline = kernelBoot.kernelArgs ?? resolved.kernelArgs;
  if (cmdline !== undefined) prepared.cmdline = cmdline;
  return prepared;
}
