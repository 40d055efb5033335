// kernelBoot: the kernel and initrd come from a container image (KubeVirt's kernelBoot.container), found
// by the paths the VMI gives or, failing those, by the image's manifest; the command line is the VMI's
// kernelArgs or, when the VMI gives none, the one the image suggests.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { VirtualMachineInstance } from "../../api/index.js";
import {
  type ContainerDiskImage,
  type ContainerDiskSource,
  canonicalPathInImage,
  openImageFile,
} from "../container-disk/index.js";
import { VmiConversionError } from "../converter/conversion-error.js";
import { pinImageFile } from "./pin-image-file.js";

type KernelBootContainer = NonNullable<
  NonNullable<NonNullable<VirtualMachineInstance["spec"]["domain"]["firmware"]>["kernelBoot"]>["container"]
>;

export interface PreparedKernelBoot {
  kernel: string;
  initrd?: string;
  cmdline?: string;
}

/**
 * The path inside the image of a file: when the VMI names kernelPath or initrdPath it gets exactly what
 * it names (as in KubeVirt, where either may be left out); when it names neither, the files the image's
 * manifest names.
 */
function pathInImage(
  container: KernelBootContainer,
  resolved: ContainerDiskImage,
  what: "kernel" | "initrd",
): string | undefined {
  const explicit = container.kernelPath !== undefined || container.initrdPath !== undefined;
  if (!explicit) return resolved[what];
  const path = what === "kernel" ? container.kernelPath : container.initrdPath;
  return path === undefined ? undefined : canonicalPathInImage(container.image, path);
}

export async function prepareKernelBoot(
  vmi: VirtualMachineInstance,
  options: { vmDir: string; images: ContainerDiskSource; dockerConfigJsons?: readonly string[] },
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
  // A kernelBoot container needs no disk: "/" says so to a source that looks for one.
  const resolved = await options.images.resolve(container.image, {
    ...(container.imagePullPolicy ? { pullPolicy: container.imagePullPolicy } : {}),
    path: "/",
    dockerConfigJsons: options.dockerConfigJsons ?? [],
  });
  const kernelPath = pathInImage(container, resolved, "kernel");
  if (kernelPath === undefined) {
    throw new VmiConversionError(
      "InvalidImage",
      `kernelBoot: ${container.image} has no kernel (set kernelPath)`,
    );
  }
  const initrdPath = pathInImage(container, resolved, "initrd");
  // Each file must be a regular file inside the image (openImageFile); the VM gets its own pinned copy.
  const pin = (what: "kernel" | "initrd", path: string) =>
    pinImageFile(join(options.vmDir, what), () =>
      openImageFile({ image: container.image, root: resolved.root, pathInImage: path, what }),
    );
  const kernel = await pin("kernel", kernelPath);
  const prepared: PreparedKernelBoot = { kernel: kernel.path };
  if (initrdPath !== undefined) {
    try {
      prepared.initrd = (await pin("initrd", initrdPath)).path;
    } catch (error) {
      if (kernel.created) await rm(kernel.path, { force: true }); // a refused initrd leaves no kernel behind
      throw error;
    }
  }
  const cmdline = kernelBoot.kernelArgs ?? resolved.kernelArgs;
  if (cmdline !== undefined) prepared.cmdline = cmdline;
  return prepared;
}
