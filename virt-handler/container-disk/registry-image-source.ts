// containerDisk and kernelBoot images pulled from OCI/Docker registries (oci-registry/), as kubelet and
// containerd would pull a launcher pod's images. What is KubeVirt's here: which file is the disk (/disk's
// only file, or containerDisk.path; disk-selection.ts), and the errors VMIs show, to which the library's
// are mapped at this boundary with their reason and message unchanged.
import {
  OciImageError,
  type PulledImage,
  RegistryPuller,
  type RegistryPullerOptions,
  ToolMissingError,
} from "../../oci-registry/index.js";
import { HostToolMissingError } from "../storage/host-commands.js";
import {
  ContainerDiskError,
  type ContainerDiskImage,
  type ContainerDiskRequest,
  type ContainerDiskSource,
} from "./container-disk-source.js";
import { chooseDisk, DISK_DIRECTORY, type DiskFacts, diskFacts } from "./disk-selection.js";

export { DEFAULT_MAX_UNPACKED_BYTES } from "../../oci-registry/index.js";
export type RegistryImageSourceOptions = RegistryPullerOptions;

/** The library's errors as virt-handler's: same reason, same message, the original as the cause. */
function asVirtHandlerError(error: unknown): unknown {
  if (error instanceof OciImageError) {
    return new ContainerDiskError(error.reason, error.image, error.message, { cause: error });
  }
  if (error instanceof ToolMissingError) return new HostToolMissingError(error.commands, { cause: error });
  return error;
}

export class RegistryImageSource implements ContainerDiskSource {
  readonly #puller: RegistryPuller<DiskFacts>;

  constructor(options: RegistryImageSourceOptions) {
    this.#puller = new RegistryPuller(options, {
      strictDirectories: [DISK_DIRECTORY],
      inspect: diskFacts,
    });
  }

  async resolve(image: string, request: ContainerDiskRequest = {}): Promise<ContainerDiskImage> {
    let pulled: PulledImage<DiskFacts>;
    try {
      pulled = await this.#puller.pull(image, request);
    } catch (error) {
      throw asVirtHandlerError(error);
    }
    return this.#imageOf(image, pulled, request.path);
  }

  async #imageOf(
    image: string,
    { root, record }: PulledImage<DiskFacts>,
    path: string | undefined,
  ): Promise<ContainerDiskImage> {
    if (path === undefined) {
      if (record.diskProblem !== undefined)
        throw new ContainerDiskError("InvalidImage", image, record.diskProblem);
      const resolved: ContainerDiskImage = { root };
      if (record.disk !== undefined) resolved.disk = record.disk;
      if (record.diskFormat !== undefined) resolved.diskFormat = record.diskFormat;
      return resolved;
    }
    const choice = await chooseDisk({
      image,
      root,
      symlinks: new Map(Object.entries(record.symlinks)),
      path,
    });
    return { root, ...choice };
  }
}
