// Where containerDisk and kernelBoot images come from. virt-handler asks a source for an image by its
// reference and gets host paths of the files it needs. The dev cluster's source is the node-local image
// store (local-image-store.ts); the real-cluster source (the launcher pod's containerDisk container, as in
// KubeVirt) will implement the same interface.

/**
 * An image's files. Paths are paths inside the image ("/disk/disk.qcow2"), already checked as text
 * (image-paths.ts); open them under `root` with openImageFile(), never by joining them yourself. Treat
 * every file as read-only: VMs write to overlays of them.
 */
export interface ContainerDiskImage {
  /**
   * The host directory holding the image's file system, where the files below and the paths chosen by
   * the VMI (`containerDisk.path`, `kernelBoot.container.kernelPath`) are found.
   */
  root: string;
  /** The disk image (KubeVirt keeps it under /disk/ in the container). */
  disk?: string;
  /** The disk's format, when the source knows it. */
  diskFormat?: "qcow2" | "raw";
  /** A kernel and initrd for kernelBoot. */
  kernel?: string;
  initrd?: string;
  /** The kernel command line the image suggests for `kernel`. */
  kernelArgs?: string;
}

/** How a VMI asks for an image (its containerDisk or kernelBoot container fields). */
export interface ContainerDiskRequest {
  /** Kubernetes' imagePullPolicy; the default depends on the tag (Always for :latest or none). */
  pullPolicy?: "Always" | "IfNotPresent" | "Never";
  /** `.dockerconfigjson` texts of the image pull secrets, in order. */
  dockerConfigJsons?: readonly string[];
  /** containerDisk.path: the disk's path inside the image instead of the only file of /disk ("/": no disk). */
  path?: string;
}

export interface ContainerDiskSource {
  /**
   * Throws a ContainerDiskError (reason "ImageNotFound" when the source does not have the image). Sources
   * that do not pull (the local store) ignore `request`.
   */
  resolve(image: string, request?: ContainerDiskRequest): Promise<ContainerDiskImage>;
}

export type ContainerDiskErrorReason =
  /** The source does not have the image (for the local store: not published there, or not localhost/). */
  | "ImageNotFound"
  /**
   * The image is there but cannot be used: an unreadable or malformed manifest, a path leaving the image,
   * a file that is not a regular file inside it, a qcow2 disk naming a backing or external data file.
   */
  | "InvalidImage"
  /**
   * The image could not be pulled: registry unreachable or failing, authentication refused, manifest or
   * blob unknown, content not matching its digest. The message keeps the registry's own error text.
   */
  | "ImagePullFailed"
  /** Pull policy Never and the image is not on the node (kubelet's reason). */
  | "ErrImageNeverPull";

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
