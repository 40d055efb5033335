// Where containerDisk and kernelBoot images come from. virt-handler asks a source for an image by its
// reference and gets host paths of the files it needs. The dev cluster's source is the node-local image
// store (local-image-store.ts); the real-cluster source (the launcher pod's containerDisk container, as in
// KubeVirt) will implement the same interface.

/** Host paths of an image's files. Treat every one as read-only: VMs write to overlays of them. */
export interface ContainerDiskImage {
  /** The disk image (KubeVirt keeps it under /disk/ in the container). */
  disk?: string;
  /** The disk's format, when the source knows it. */
  diskFormat?: "qcow2" | "raw";
  /** A kernel and initrd for kernelBoot. */
  kernel?: string;
  initrd?: string;
  /** The kernel command line the image suggests for `kernel`. */
  kernelArgs?: string;
  /**
   * The host directory holding the image's file system, when the source has one, so that paths chosen
   * by the VMI (`containerDisk.path`, `kernelBoot.container.kernelPath`) can be found in it.
   */
  root?: string;
}

export interface ContainerDiskSource {
  /** Throws a ContainerDiskError (reason "ImageNotFound" when the source does not have the image). */
  resolve(image: string): Promise<ContainerDiskImage>;
}

export type ContainerDiskErrorReason =
  /** The source does not have the image (for the local store: not published there, or not localhost/). */
  | "ImageNotFound"
  /** The image is there but cannot be used (unreadable or malformed manifest, a path leaving the image). */
  | "InvalidImage";

export class ContainerDiskError extends Error {
  override readonly name = "ContainerDiskError";

  constructor(
    readonly reason: ContainerDiskErrorReason,
    readonly image: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
